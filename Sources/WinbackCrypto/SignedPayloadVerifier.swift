import Crypto
import WinbackAnalytics
import WinbackAppStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Verifies an App Store JWS as Apple's `SignedDataVerifier` does offline, then decodes it.
///
/// Checks run in the check order of docs/inputs.md and the first failure names the reject code: segments and base64url
/// (`malformed_jws`) → `alg` (`unsupported_algorithm`) → three `x5c` entries (`invalid_chain_length`) →
/// certificates decode with a P-256 leaf (`invalid_certificate`) → `signedDate` (`missing_field` /
/// `invalid_field`) → path to a configured root (`untrusted_chain`) → every certificate valid at
/// `⌊signedDate / 1000⌋` s, bounds inclusive (`certificate_expired`) → Apple marker OIDs
/// (`missing_apple_oid`) → the 64-byte ES256 signature (`invalid_signature`) → app, environment,
/// field types and required fields (``PayloadDecoder``).
public struct SignedPayloadVerifier: Sendable {
    /// Validates each distinct chain once.
    public let chains: ChainValidator
    /// Checks and decodes payloads the general way.
    public let decoder: PayloadDecoder
    private let headers = JWSHeaderCache()

    /// A verifier trusting `chains`' roots, decoding with `decoder`.
    public init(chains: ChainValidator, decoder: PayloadDecoder) {
        self.chains = chains
        self.decoder = decoder
    }

    /// Verifies and decodes `jws` as `kind`; returns the payload and its unknown-enum warnings.
    public func verify(_ jws: String, as kind: PayloadKind) async throws(RecordFailure) -> (AcceptedPayload, [String]) {
        try await verify(RecordText(jws), as: kind)
    }

    /// Verifies and decodes the JWS `jws` (read in place, not copied) as `kind`, the general way: the payload
    /// parsed as JSON, checked, then decoded into its Apple model by ``decoder``.
    public func verify(
        _ jws: RecordText, as kind: PayloadKind, scratch: VerifierScratch? = nil
    ) async throws(RecordFailure) -> (AcceptedPayload, [String]) {
        let object = try await verifiedObject(jws, scratch: scratch)
        return try decoder.decode(object, as: kind)
    }

    /// Verifies `jws` as a record is verified — segments, header, chain to a configured root, validity at its
    /// `signedDate`, Apple's OIDs, the signature — and returns its payload object undecoded: for signed
    /// messages that are not records, such as a Retention Messaging request (docs/retention-messaging.md).
    public func verifiedObject(_ jws: String) async throws(RecordFailure) -> JSONValue {
        try await verifiedObject(RecordText(jws), scratch: nil)
    }

    private func verifiedObject(_ jws: RecordText, scratch: VerifierScratch?) async throws(RecordFailure) -> JSONValue {
        let opened = try await open(jws, scratch: scratch)
        let object = try opened.parsePayload()
        try finish(opened, payload: .parsed(object), scratch: scratch)
        return object
    }

    /// The first phase: splits `jws` into its segments, reads its header (cached by segment; a new one's chain
    /// is evaluated here), decodes the payload and the signature from base64url and hashes the signing input.
    /// Throws what the check order of docs/inputs.md names up to the header's form (`malformed_jws`). With
    /// `scratch` (one task at a time), headers are used through its private copies and the payload is decoded
    /// into its buffer.
    public func open(_ jws: RecordText, scratch: VerifierScratch?) async throws(RecordFailure) -> OpenedJWS {
        let (found, newHeader) = try jws.withBytes { (bytes) throws(RecordFailure) in try self.split(bytes, scratch: scratch) }
        var opened = found
        if let (segment, header) = newHeader {
            let chain =
                header.malformed == nil && header.chainFailure == nil
                ? await chains.evaluate(leaf: header.leaf, intermediate: header.intermediate) : nil
            let entry = JWSHeaderCache.Entry(segment: segment, header: header, chain: chain)
            headers.insert(entry, hash: opened.headerHash)
            opened.header = scratch?.adoptHeaderEntry(entry, hash: opened.headerHash) ?? entry
        }
        return opened
    }

    /// The second phase: with what the caller read of the payload, the checks that remain in the check order
    /// of docs/inputs.md — a payload object, the header's algorithm and chain, `signedDate`, the chain's
    /// validity at it, Apple's OIDs, the signature. The payload's decoding (app, environment, fields) is the
    /// caller's, after this.
    public func finish(_ opened: OpenedJWS, payload: OpenedJWS.PayloadReading, scratch: VerifierScratch?) throws(RecordFailure) {
        if let failure = opened.signatureFailure { throw failure }
        let entry = opened.header
        if let clean = entry.clean {
            // The header and its chain passed every check that does not depend on the record, so of the
            // check order of docs/inputs.md only these remain: a payload object, signedDate, validity at it, the signature.
            try Self.requireObject(payload)
            let signedDate = try Self.signedDate(payload)
            let seconds = InstantFormat.floorDivide(signedDate, 1000)
            if seconds < clean.validFrom || seconds > clean.validUntil {
                try Self.requireValidity(entry.chain?.validityWindows ?? [], at: signedDate)
            }
            try Self.requireSignature(opened, key: clean.leafKey, scratch: scratch)
        } else {
            try Self.checkOneByOne(opened, payload: payload, scratch: scratch)
        }
    }

    /// Every check in the check order of docs/inputs.md, for a header or chain that failed one (the first failure is thrown).
    private static func checkOneByOne(_ opened: OpenedJWS, payload: OpenedJWS.PayloadReading, scratch: VerifierScratch?)
        throws(RecordFailure)
    {
        let entry = opened.header
        if let failure = entry.header.malformed { throw failure }
        try requireObject(payload)
        if let failure = entry.header.algorithmFailure { throw failure }
        if let failure = entry.header.chainFailure { throw failure }
        guard let chain = entry.chain else { throw RecordFailure(.invalidCertificate, "x5c could not be evaluated") }
        if let failure = chain.decodeFailure { throw failure }
        let signedDate = try signedDate(payload)
        if let failure = chain.chainFailure { throw failure }
        try requireValidity(chain.validityWindows, at: signedDate)
        if let failure = chain.oidFailure { throw failure }
        try requireSignature(opened, key: chain.leafKey, scratch: scratch)
    }

    private static func requireObject(_ payload: OpenedJWS.PayloadReading) throws(RecordFailure) {
        guard case .parsed(let value) = payload else { return }
        guard value.objectMembers != nil else {
            throw RecordFailure(.malformedJWS, "payload is a JSON \(value.typeName), expected an object")
        }
    }

    /// The payload's `signedDate`, epoch milliseconds.
    private static func signedDate(_ payload: OpenedJWS.PayloadReading) throws(RecordFailure) -> Int64 {
        let value: JSONValue
        switch payload {
        case .signedDate(let signedDate): return signedDate
        case .parsed(let parsed): value = parsed
        }
        switch value["signedDate"] {
        case nil, .null?: throw RecordFailure.missing("signedDate")
        case .integer(let value)?: return value
        case let other?: throw RecordFailure(FieldError(field: "signedDate", expected: "integer", found: FieldValue.describe(other)))
        }
    }

    /// Every certificate valid at `⌊signedDate / 1000⌋` s, bounds inclusive; the first that is not is named.
    private static func requireValidity(_ windows: [ChainEvaluation.ValidityWindow], at signedDate: Int64) throws(RecordFailure) {
        let seconds = InstantFormat.floorDivide(signedDate, 1000)
        for window in windows where seconds < window.notBeforeSeconds || seconds > window.notAfterSeconds {
            throw RecordFailure(
                .certificateExpired,
                "\(window.role) certificate not valid at signedDate \(InstantFormat.iso8601(milliseconds: signedDate)) (valid \(InstantFormat.iso8601(milliseconds: window.notBeforeSeconds * 1000)) to \(InstantFormat.iso8601(milliseconds: window.notAfterSeconds * 1000)))"
            )
        }
    }

    /// The 64-byte ES256 signature (r‖s) over the signing input verifies with `key`.
    private static func requireSignature(_ opened: OpenedJWS, key: P256.Signing.PublicKey?, scratch: VerifierScratch?)
        throws(RecordFailure)
    {
        let signature: P256.Signing.ECDSASignature?
        if opened.isSignatureInScratch, let scratch {
            signature = scratch.signature
        } else {
            guard opened.signature.count == 64 else {
                throw RecordFailure(.invalidSignature, "signature: expected 64 bytes (r‖s), found \(opened.signature.count)")
            }
            signature = try? P256.Signing.ECDSASignature(rawRepresentation: opened.signature)
        }
        guard let key, let digest = opened.digest, let signature, isValid(signature, digest, key, timedBy: opened.timing) else {
            throw RecordFailure(.invalidSignature, "ES256 signature does not verify with the leaf key")
        }
    }

    /// ECDSA verification, timed (with the hashing before it) when `timing` says the scratch's clock samples this record.
    private static func isValid(
        _ signature: P256.Signing.ECDSASignature, _ digest: SHA256.Digest, _ key: P256.Signing.PublicKey,
        timedBy timing: (clock: SignatureClock, hashNanoseconds: Int64)?
    ) -> Bool {
        guard let (clock, hashNanoseconds) = timing else { return key.isValidSignature(signature, for: digest) }
        let start = clock.read()
        let isValid = key.isValidSignature(signature, for: digest)
        clock.record(nanoseconds: hashNanoseconds + clock.elapsed(since: start))
        return isValid
    }

    /// Splits the JWS bytes: three segments, base64url JSON header (cached by segment) and payload, signature;
    /// a header not cached yet comes back with its segment, parsed, for ``open(_:scratch:)`` to evaluate its chain.
    private func split(
        _ bytes: UnsafeBufferPointer<UInt8>, scratch: VerifierScratch?
    ) throws(RecordFailure) -> (OpenedJWS, newHeader: ([UInt8], JWSHeader)?) {
        // memchr: the segments are ~6.6 KB, a byte loop over them cost ~3 % of verification.
        // Up to three dot positions, without an array per record.
        var dots = (0, 0)
        var dotCount = 0
        if let base = bytes.baseAddress {
            var offset = 0
            while dotCount < 3, offset < bytes.count, let found = memchr(base + offset, 0x2E, bytes.count - offset) {
                let index = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                if dotCount == 0 { dots.0 = index } else if dotCount == 1 { dots.1 = index }
                dotCount += 1
                offset = index + 1
            }
        }
        guard dotCount == 2 else {
            let found = bytes.reduce(into: 1) { count, byte in if byte == UInt8(ascii: ".") { count += 1 } }
            throw RecordFailure(.malformedJWS, "expected 3 dot-separated segments, found \(found)")
        }
        let headerSegment = UnsafeBufferPointer(rebasing: bytes[0..<dots.0])
        let headerHash = JWSHeaderCache.hash(headerSegment)
        var cached: JWSHeaderCache.Entry?
        if let own = scratch?.headerEntry(headerSegment, hash: headerHash) {
            cached = own
        } else if let shared = headers.lookup(headerSegment, hash: headerHash) {
            cached = scratch?.adoptHeaderEntry(shared, hash: headerHash) ?? shared
        }
        var opened: OpenedJWS
        var newHeader: ([UInt8], JWSHeader)?
        if let cached {
            // A clean entry's header is well-formed: nothing of it is read (or copied) per record then.
            if cached.clean == nil, let malformed = cached.header.malformed { throw malformed }
            opened = OpenedJWS(header: cached)
        } else {
            // Parse now: a malformed header is reported before the payload, as the check order requires.
            let header = JWSHeader(segment: headerSegment)
            if let malformed = header.malformed { throw malformed }
            let segment = Array(headerSegment)
            newHeader = (segment, header)
            // Without its chain until open(_:scratch:) evaluates it.
            opened = OpenedJWS(header: JWSHeaderCache.Entry(segment: segment, header: header, chain: nil))
        }
        opened.headerHash = headerHash
        let payloadSegment = UnsafeBufferPointer(rebasing: bytes[(dots.0 + 1)..<dots.1])
        let capacity = Base64.decodedCapacity(payloadSegment.count)
        if let scratch, capacity <= VerifierScratch.largestKeptPayload {
            let buffer = scratch.payloadBuffer(capacity: capacity)
            guard let count = Base64.decodeURL(buffer: payloadSegment, into: buffer), count > 0 else {
                throw RecordFailure(.malformedJWS, "payload segment is not base64url")
            }
            opened.payloadInScratch = UnsafeBufferPointer(rebasing: buffer[0..<count])
        } else {
            guard let payload = Base64.decodeURL(buffer: payloadSegment), !payload.isEmpty else {
                throw RecordFailure(.malformedJWS, "payload segment is not base64url")
            }
            opened.payloadOwned = payload
        }
        let signatureSegment = UnsafeBufferPointer(rebasing: bytes[(dots.1 + 1)...])
        if let scratch, scratch.decodeSignature(signatureSegment) {
            opened.isSignatureInScratch = true
        } else if let signature = Base64.decodeURL(buffer: signatureSegment) {
            opened.signature = signature
        } else {
            opened.signatureFailure = RecordFailure(.malformedJWS, "signature segment is not base64url")
        }
        if let cached {
            // The same digest as hashing the whole signing input: SHA-256 continued over the payload from
            // the state after the (byte-identical, memcmp-checked) header and its dot.
            let clock = scratch?.clock
            let start = clock?.begin()
            var hasher = cached.signingPrefix
            hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[(dots.0 + 1)..<dots.1]))
            opened.digest = hasher.finalize()
            if let clock, let start { opened.timing = (clock, clock.elapsed(since: start)) }
        } else {
            scratch?.clock.countUntimed()
            opened.digest = SHA256.hash(data: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[0..<dots.1]))
        }
        return (opened, newHeader)
    }
}
