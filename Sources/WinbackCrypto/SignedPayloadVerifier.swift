import Crypto
import WinbackCore

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

    /// The parts of a compact JWS found in one pass over its bytes.
    private struct Parts {
        var headerHash = 0
        var header: JWSHeaderCache.Entry?
        var headerSegment: [UInt8] = []
        /// The freshly parsed header on a cache miss.
        var parsedHeader: JWSHeader?
        var payload: JSONValue = .null
        /// The `signedDate` of a payload the worker's cache decoded (then ``payload`` stays `null`).
        var cacheSignedDate: Int64?
        /// The signature's bytes, unless they were decoded into the cache's ``VerifierWorkerCache/signature``.
        var signature: [UInt8] = []
        var isSignatureInCache = false
        var digest: SHA256.Digest?
        /// The cache's clock and the hashing's nanoseconds, when this record's signature check is being timed.
        var timing: (clock: SignatureClock, hashNanoseconds: Int64)?
    }

    /// Verifies and decodes `jws` as `kind`; returns the payload and its unknown-enum warnings.
    public func verify(_ jws: String, as kind: PayloadKind) async throws(RecordFailure) -> (AcceptedPayload, [String]) {
        try await verify(RecordText(jws), as: kind)
    }

    /// Verifies and decodes the JWS `jws` (read in place, not copied) as `kind`.
    public func verify(_ jws: RecordText, as kind: PayloadKind) async throws(RecordFailure) -> (AcceptedPayload, [String]) {
        switch try await verify(jws, as: kind, cache: nil) {
        case .decoded(let payload, let warnings): return (payload, warnings)
        case .decodedByCache: preconditionFailure("no cache was given, so none decoded the payload")
        }
    }

    /// Verifies `jws` as `kind`. With `cache` (one task at a time), headers are looked up in the cache first
    /// and used through its private copies, and the payload bytes go to the cache's decoder first (a
    /// common-shape payload is decoded there, with the same checks and outcome and no Apple model built).
    public func verify(
        _ jws: RecordText, as kind: PayloadKind, cache: (any VerifierWorkerCache)? = nil
    ) async throws(RecordFailure) -> VerifiedPayload {
        let parts = try await check(jws, as: kind, cache: cache)
        if parts.cacheSignedDate != nil { return .decodedByCache }
        let (payload, warnings) = try decoder.decode(parts.payload, as: kind)
        return .decoded(payload, warnings: warnings)
    }

    /// Verifies `jws` as a record is verified — segments, header, chain to a configured root, validity at its
    /// `signedDate`, Apple's OIDs, the signature — and returns its payload object undecoded: for signed
    /// messages that are not records, such as a Retention Messaging request (docs/retention-messaging.md).
    public func verifiedObject(_ jws: String) async throws(RecordFailure) -> JSONValue {
        try await check(RecordText(jws), as: .transaction, cache: nil).payload
    }

    /// Every check but the payload's decoding; `kind` matters only to `cache`'s decoder.
    private func check(
        _ jws: RecordText, as kind: PayloadKind, cache: (any VerifierWorkerCache)?
    ) async throws(RecordFailure) -> Parts {
        let parts = try jws.withBytes { (bytes) throws(RecordFailure) -> Parts in try self.split(bytes, as: kind, cache: cache) }
        let entry: JWSHeaderCache.Entry
        if let cached = parts.header {
            entry = cached
        } else {
            let header = parts.parsedHeader ?? parts.headerSegment.withUnsafeBufferPointer { JWSHeader(segment: $0) }
            let chain =
                header.malformed == nil && header.chainFailure == nil
                ? await chains.evaluate(leaf: header.leaf, intermediate: header.intermediate) : nil
            entry = JWSHeaderCache.Entry(segment: parts.headerSegment, header: header, chain: chain)
            headers.insert(entry, hash: parts.headerHash)
            _ = cache?.adoptHeaderEntry(entry, hash: parts.headerHash)
        }
        if let clean = entry.clean {
            // The header and its chain passed every check that does not depend on the record, so of the
            // the check order of docs/inputs.md only these remain: a payload object, signedDate, validity at it, the signature.
            try Self.requireObject(parts)
            let signedDate = try Self.signedDate(parts)
            let seconds = InstantFormat.floorDivide(signedDate, 1000)
            if seconds < clean.validFrom || seconds > clean.validUntil {
                try Self.requireValidity(entry.chain?.validityWindows ?? [], at: signedDate)
            }
            try Self.requireSignature(parts, key: clean.leafKey, cache: cache)
        } else {
            try Self.checkOneByOne(parts, entry: entry, cache: cache)
        }
        return parts
    }

    /// Every check in the check order of docs/inputs.md, for a header or chain that failed one (the first failure is thrown).
    private static func checkOneByOne(_ parts: Parts, entry: JWSHeaderCache.Entry, cache: (any VerifierWorkerCache)?) throws(RecordFailure)
    {
        if let failure = entry.header.malformed { throw failure }
        try requireObject(parts)
        if let failure = entry.header.algorithmFailure { throw failure }
        if let failure = entry.header.chainFailure { throw failure }
        guard let chain = entry.chain else { throw RecordFailure(.invalidCertificate, "x5c could not be evaluated") }
        if let failure = chain.decodeFailure { throw failure }
        let signedDate = try signedDate(parts)
        if let failure = chain.chainFailure { throw failure }
        try requireValidity(chain.validityWindows, at: signedDate)
        if let failure = chain.oidFailure { throw failure }
        try requireSignature(parts, key: chain.leafKey, cache: cache)
    }

    private static func requireObject(_ parts: Parts) throws(RecordFailure) {
        guard parts.cacheSignedDate != nil || parts.payload.objectMembers != nil else {
            throw RecordFailure(.malformedJWS, "payload is a JSON \(parts.payload.typeName), expected an object")
        }
    }

    /// The payload's `signedDate`, epoch milliseconds.
    private static func signedDate(_ parts: Parts) throws(RecordFailure) -> Int64 {
        if let signedDate = parts.cacheSignedDate { return signedDate }
        switch parts.payload["signedDate"] {
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
    private static func requireSignature(_ parts: Parts, key: P256.Signing.PublicKey?, cache: (any VerifierWorkerCache)?)
        throws(RecordFailure)
    {
        let signature: P256.Signing.ECDSASignature?
        if parts.isSignatureInCache, let cache {
            signature = cache.signature
        } else {
            guard parts.signature.count == 64 else {
                throw RecordFailure(.invalidSignature, "signature: expected 64 bytes (r‖s), found \(parts.signature.count)")
            }
            signature = try? P256.Signing.ECDSASignature(rawRepresentation: parts.signature)
        }
        guard let key, let digest = parts.digest, let signature, isValid(signature, digest, key, timedBy: parts.timing) else {
            throw RecordFailure(.invalidSignature, "ES256 signature does not verify with the leaf key")
        }
    }

    /// ECDSA verification, timed (with the hashing before it) when `timing` says the cache's clock samples this record.
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

    /// Splits the JWS bytes: three segments, base64url JSON header (cached by segment) and payload, signature.
    private func split(
        _ bytes: UnsafeBufferPointer<UInt8>, as kind: PayloadKind, cache: (any VerifierWorkerCache)?
    ) throws(RecordFailure) -> Parts {
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
        var parts = Parts()
        let headerSegment = UnsafeBufferPointer(rebasing: bytes[0..<dots.0])
        parts.headerHash = JWSHeaderCache.hash(headerSegment)
        if let own = cache?.headerEntry(headerSegment, hash: parts.headerHash) {
            parts.header = own
        } else if let shared = headers.lookup(headerSegment, hash: parts.headerHash) {
            parts.header = cache?.adoptHeaderEntry(shared, hash: parts.headerHash) ?? shared
        }
        if let entry = parts.header {
            // A clean entry's header is well-formed: nothing of it is read (or copied) per record then.
            if entry.clean == nil, let malformed = entry.header.malformed { throw malformed }
        } else {
            parts.headerSegment = Array(headerSegment)
            // Parse now: a malformed header is reported before the payload, as the check order requires.
            let header = JWSHeader(segment: headerSegment)
            if let malformed = header.malformed { throw malformed }
            parts.parsedHeader = header
        }
        // The payload is decoded into a temporary buffer: an array per record was a >1 KB heap block, which
        // made glibc consolidate its free lists on every record once the heap held millions of objects.
        let payloadSegment = UnsafeBufferPointer(rebasing: bytes[(dots.0 + 1)..<dots.1])
        let payload = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Base64.decodedCapacity(payloadSegment.count)) { buffer in
            Result { () throws(RecordFailure) -> Void in
                guard let count = Base64.decodeURL(buffer: payloadSegment, into: buffer), count > 0 else {
                    throw RecordFailure(.malformedJWS, "payload segment is not base64url")
                }
                let json = UnsafeBufferPointer(rebasing: buffer[0..<count])
                if let signedDate = cache?.decodePayload(json, as: kind) {
                    parts.cacheSignedDate = signedDate
                    return
                }
                do {
                    parts.payload = try JSONParser.parse(buffer: json)
                } catch {
                    throw RecordFailure(.malformedJWS, "payload is not JSON: \(error)")
                }
            }
        }
        try payload.get()
        let signatureSegment = UnsafeBufferPointer(rebasing: bytes[(dots.1 + 1)...])
        if let cache, cache.decodeSignature(signatureSegment) {
            parts.isSignatureInCache = true
        } else {
            guard let signature = Base64.decodeURL(buffer: signatureSegment) else {
                throw RecordFailure(.malformedJWS, "signature segment is not base64url")
            }
            parts.signature = signature
        }
        if let cached = parts.header {
            // The same digest as hashing the whole signing input: SHA-256 continued over the payload from
            // the state after the (byte-identical, memcmp-checked) header and its dot.
            let clock = cache?.clock
            let start = clock?.begin()
            var hasher = cached.signingPrefix
            hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[(dots.0 + 1)..<dots.1]))
            parts.digest = hasher.finalize()
            if let clock, let start { parts.timing = (clock, clock.elapsed(since: start)) }
        } else {
            cache?.clock.countUntimed()
            parts.digest = SHA256.hash(data: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[0..<dots.1]))
        }
        return parts
    }
}
