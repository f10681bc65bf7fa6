import Crypto
import WinbackAnalytics
import WinbackAppStore
import WinbackCrypto

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which shard keeps a record (docs/sharding.md), decided before verification from the record's unverified
/// payload: its owner is the `originalTransactionId` of a transaction or renewal info; for a notification,
/// that of its nested `signedTransactionInfo`, else that of its nested `signedRenewalInfo`, else its
/// `notificationUUID`; for anything unreadable, `"<source>:<line>"`. The shard is the first 8 bytes
/// (big-endian) of SHA-256 of the owner, mod `N`. A key given twice counts the first time.
///
/// A notification's nested records are records of their own and each belongs to the shard of its own owner
/// (``nestedRenewalShard(of:count:)``): a notification whose renewal info is another subscription's (Apple
/// sends such) is verified by both shards, and each keeps only its part, so every subscription's records meet
/// in one shard and the merge equals one machine for every `N`.
public enum ShardRule {
    private static let originalTransactionId = Array("originalTransactionId".utf8)
    private static let data = Array("data".utf8)
    private static let signedTransactionInfo = Array("signedTransactionInfo".utf8)
    private static let signedRenewalInfo = Array("signedRenewalInfo".utf8)
    private static let notificationUUID = Array("notificationUUID".utf8)

    /// The shard of `raw` among `count`. Every shard computes it for every record, so the common case — a
    /// transaction or renewal info naming its owner early — is decided without allocating (``owner(of:)``
    /// is the rule in full).
    public static func shard(of raw: RawRecord, count: Int) -> Int {
        guard count > 1 else { return 0 }
        if case .signed(let text, let kind) = raw.content, kind != .notification,
            let shard = text.withBytes({ shardFromPrefix(of: $0, count: count) })
        {
            return shard
        }
        return shard(ofOwner: owner(of: raw), count: count)
    }

    /// The shard of a signed notification's nested `signedRenewalInfo` among `count` (the shard of its own
    /// `originalTransactionId`), or `nil` for any other record or a notification without a readable one, whose
    /// parts all belong to ``shard(of:count:)``.
    public static func nestedRenewalShard(of raw: RawRecord, count: Int) -> Int? {
        guard count > 1, case .signed(let text, .notification) = raw.content else { return nil }
        let owner = text.withBytes { jws -> [UInt8]? in
            guard let payload = decodedPayload(of: jws) else { return nil }
            return payload.withUnsafeBufferPointer { bytes in
                guard let nested = nestedJWS(signedRenewalInfo, in: bytes) else { return nil }
                return ownerOfJWS(nested, kind: .renewalInfo)
            }
        }
        return owner.map { shard(ofOwner: $0, count: count) }
    }

    /// The shard of an owner key among `count`.
    public static func shard(ofOwner owner: [UInt8], count: Int) -> Int {
        owner.withUnsafeBytes { shard(ofOwnerBytes: $0, count: count) }
    }

    private static func shard(ofOwnerBytes owner: UnsafeRawBufferPointer, count: Int) -> Int {
        let digest = SHA256.hash(data: owner)
        let value = digest.withUnsafeBytes { bytes in bytes.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) } }
        return Int(value % UInt64(count))
    }

    /// The shard of a JWS whose payload names `originalTransactionId` within its first ``prefixCharacters``
    /// base64 characters, decoded into a stack buffer; `nil` when it must be read the general way.
    private static func shardFromPrefix(of jws: UnsafeBufferPointer<UInt8>, count: Int) -> Int? {
        guard let segment = payloadSegment(of: jws), segment.count > prefixCharacters else { return nil }
        let prefix = UnsafeBufferPointer(rebasing: segment[segment.startIndex..<(segment.startIndex + prefixCharacters)])
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Base64.decodedCapacity(prefixCharacters)) { buffer -> Int? in
            guard let length = Base64.decodeURL(buffer: prefix, into: buffer) else { return nil }
            let bytes = UnsafeBufferPointer(rebasing: buffer[..<length])
            guard case .found(let value) = JSONMemberScanner.match(originalTransactionId, in: bytes) else { return nil }
            return shard(ofOwnerBytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[value.range])), count: count)
        }
    }

    /// The owner key of `raw`, as described above.
    public static func owner(of raw: RawRecord) -> [UInt8] {
        let found: [UInt8]?
        switch raw.content {
        case .signed(let text, let kind): found = text.withBytes { ownerOfJWS($0, kind: kind) }
        case .decoded(let value, let kind): found = ownerOfDecoded(value, kind: kind)
        case .failure: found = nil
        }
        return found ?? Array("\(raw.location.source):\(raw.location.line)".utf8)
    }

    /// Base64 characters of a payload decoded first: Apple's payloads name `originalTransactionId` within
    /// their first 200 bytes, so most records never need the rest decoded.
    private static let prefixCharacters = 344

    /// The owner read from the whole decoded payload (``shard(of:count:)`` tries a prefix first).
    private static func ownerOfJWS(_ jws: UnsafeBufferPointer<UInt8>, kind: PayloadKind) -> [UInt8]? {
        guard let segment = payloadSegment(of: jws) else { return nil }
        switch kind {
        case .transaction, .renewalInfo:
            guard let payload = Base64.decodeURL(buffer: UnsafeBufferPointer(rebasing: segment)) else { return nil }
            return payload.withUnsafeBufferPointer { member(originalTransactionId, in: $0) }
        case .notification:
            guard let payload = Base64.decodeURL(buffer: UnsafeBufferPointer(rebasing: segment)) else { return nil }
            return payload.withUnsafeBufferPointer { bytes -> [UInt8]? in
                for (key, kind) in [(signedTransactionInfo, PayloadKind.transaction), (signedRenewalInfo, .renewalInfo)] {
                    if let nested = nestedJWS(key, in: bytes), let owner = ownerOfJWS(nested, kind: kind) { return owner }
                }
                return member(notificationUUID, in: bytes)
            }
        }
    }

    /// The decoded payload of a compact JWS.
    private static func decodedPayload(of jws: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard let segment = payloadSegment(of: jws) else { return nil }
        return Base64.decodeURL(buffer: UnsafeBufferPointer(rebasing: segment))
    }

    /// The JWS text of `data.<key>` in a notification's decoded payload `bytes`.
    private static func nestedJWS(_ key: [UInt8], in bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8>? {
        guard let dataValue = JSONMemberScanner.value(of: data, in: bytes), dataValue.isObject else { return nil }
        let dataBytes = UnsafeBufferPointer(rebasing: bytes[dataValue.range])
        guard let nested = JSONMemberScanner.value(of: key, in: dataBytes), nested.isString else { return nil }
        return UnsafeBufferPointer(rebasing: dataBytes[nested.range])
    }

    private static func ownerOfDecoded(_ value: JSONValue, kind: PayloadKind) -> [UInt8]? {
        func text(_ value: JSONValue?) -> [UInt8]? {
            switch value {
            case .string(let string)?: Array(string.utf8)
            case .integer(let number)?: Array(String(number).utf8)
            default: nil
            }
        }
        switch kind {
        case .transaction, .renewalInfo: return text(value["originalTransactionId"])
        case .notification:
            for (key, kind) in [("signedTransactionInfo", PayloadKind.transaction), ("signedRenewalInfo", .renewalInfo)] {
                switch value["data"]?[key] {
                case .string(let jws)?:
                    var jws = jws
                    if let owner = jws.withUTF8({ ownerOfJWS($0, kind: kind) }) { return owner }
                case let object?:
                    if let owner = text(object["originalTransactionId"]) { return owner }
                case nil: break
                }
            }
            return text(value["notificationUUID"])
        }
    }

    /// The bytes of a member's value (a string's as written between its quotes).
    private static func member(_ key: [UInt8], in bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        JSONMemberScanner.value(of: key, in: bytes).map { Array(bytes[$0.range]) }
    }

    /// The middle (payload) segment of a compact JWS, still base64url (the dots found with `memchr`: the
    /// header before them is most of a JWS).
    private static func payloadSegment(of jws: UnsafeBufferPointer<UInt8>) -> Slice<UnsafeBufferPointer<UInt8>>? {
        guard let base = jws.baseAddress, let firstDot = memchr(base, 0x2E, jws.count) else { return nil }
        let first = base.distance(to: firstDot.assumingMemoryBound(to: UInt8.self))
        guard let secondDot = memchr(base + first + 1, 0x2E, jws.count - first - 1) else { return nil }
        let second = base.distance(to: secondDot.assumingMemoryBound(to: UInt8.self))
        return jws[(first + 1)..<second]
    }
}
