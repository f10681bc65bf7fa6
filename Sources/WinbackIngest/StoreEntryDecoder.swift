import Crypto
import Foundation
import WinbackAnalytics

/// Reads an entry written by ``StoreEntryEncoder`` back into the outcomes it holds, in their order.
///
/// ``check(_:)`` verifies the entry's checksum, header and end before anything is used, so a damaged or
/// truncated entry is refused whole; ``decode(_:source:compactor:each:)`` then replays it.
public enum StoreEntryDecoder {
    /// Why an entry cannot be used.
    public struct Damage: Error, CustomStringConvertible {
        /// What is wrong with it.
        public var description: String
    }

    /// Checks `bytes`: long enough, the right header and version, the SHA-256 at its end matching the rest,
    /// and the key it carries equal to `key` (``StoreEntryEncoder/key(path:size:sha256:verifierDigest:)``).
    /// Throws ``Damage`` otherwise.
    public static func check(_ bytes: UnsafeRawBufferPointer, keyed: Bool = false, key: String) throws(Damage) {
        let header = StoreEntryEncoder.magic.count + 1
        guard bytes.count >= header + 1 + 32 else { throw Damage(description: "truncated (\(bytes.count) bytes)") }
        let magic = keyed ? StoreEntryEncoder.keyedMagic : StoreEntryEncoder.magic
        guard bytes.prefix(magic.count).elementsEqual(magic) else {
            throw Damage(description: "not an entry (no \(String(decoding: magic, as: UTF8.self)) header)")
        }
        guard bytes[StoreEntryEncoder.magic.count] == StoreEntryEncoder.formatVersion else {
            throw Damage(description: "format version \(bytes[StoreEntryEncoder.magic.count]), expected \(StoreEntryEncoder.formatVersion)")
        }
        let content = UnsafeRawBufferPointer(rebasing: bytes[..<(bytes.count - 32)])
        guard SHA256.hash(data: content).elementsEqual(bytes.suffix(32)) else {
            throw Damage(description: "checksum mismatch (damaged or changed on disk)")
        }
        guard content.count >= header + 1 + 4 else { throw Damage(description: "no key") }
        let lengthBytes = content.suffix(4).map { Int($0) }
        let keyLength = lengthBytes[0] | lengthBytes[1] << 8 | lengthBytes[2] << 16 | lengthBytes[3] << 24
        let keyEnd = content.count - 4
        guard keyLength <= keyEnd - header - 1, content[keyEnd - keyLength - 1] == 0 else { throw Damage(description: "no end tag") }
        let stored = String(decoding: content[(keyEnd - keyLength)..<keyEnd], as: UTF8.self)
        guard stored == key else {
            let first = stored.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
            throw Damage(
                description: "the entry holds the outcomes of another file or verifier (its key names '\(first)', "
                    + "\(stored.split(separator: "\n").dropFirst().joined(separator: " ").prefix(60))…)")
        }
    }

    /// Replays a checked entry of `source`: `each` sees every outcome in order. Values are interned through
    /// `compactor` as verifying them would.
    public static func decode(
        _ bytes: UnsafeRawBufferPointer, source: String, compactor: PayloadCompactor, each: (RecordOutcome) throws -> Void
    ) throws {
        try decode(bytes, source: source, compactor: compactor, keyed: false) { _, outcome in try each(outcome) }
    }

    /// Replays a checked keyed entry (a shard's): `each` sees every outcome in order with its ``RecordOrder``.
    public static func decodeKeyed(
        _ bytes: UnsafeRawBufferPointer, source: String, compactor: PayloadCompactor, each: (RecordOrder, RecordOutcome) throws -> Void
    ) throws {
        try decode(bytes, source: source, compactor: compactor, keyed: true) { index, outcome in
            try each(RecordOrder(line: outcome.location.line, index: index), outcome)
        }
    }

    private static func decode(
        _ bytes: UnsafeRawBufferPointer, source: String, compactor: PayloadCompactor, keyed: Bool, each: (Int, RecordOutcome) throws -> Void
    ) throws {
        var reader = Reader(bytes: UnsafeRawBufferPointer(rebasing: bytes[..<(bytes.count - 32)]), compactor: compactor)
        reader.index = StoreEntryEncoder.magic.count + 1
        while let (index, outcome) = try reader.outcome(source: source, keyed: keyed) { try each(index, outcome) }
    }

    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        let compactor: PayloadCompactor
        var index = 0
        var attributes: [TransactionAttributes] = []
        var lastIdentity: SubscriptionIdentity?

        init(bytes: UnsafeRawBufferPointer, compactor: PayloadCompactor) {
            self.bytes = bytes
            self.compactor = compactor
        }

        /// The next outcome with its index on its line (0 in a plain entry), or `nil` at the end tag.
        mutating func outcome(source: String, keyed: Bool) throws -> (Int, RecordOutcome)? {
            let tag = try byte()
            switch tag {
            case 0: return nil
            case 1:
                let index = keyed ? try count() : 0
                let location = try location(source)
                var warnings: [String] = []
                for _ in 0..<(try count()) { warnings.append(try string()) }
                return (index, .accepted(AcceptedRecord(location: location, kept: try kept(), warnings: warnings)))
            case 2:
                let index = keyed ? try count() : 0
                let location = try location(source)
                let code = try string()
                guard let rejectCode = RejectCode(rawValue: code) else { throw Damage(description: "unknown reject code '\(code)'") }
                let message = try string()
                let record = try string()
                let base64 = try optional { try $0.string() }
                return (
                    index,
                    .rejected(Rejection(location: location, code: rejectCode, message: message, record: record, recordBase64: base64))
                )
            default:
                throw Damage(description: "unknown outcome tag \(tag)")
            }
        }

        mutating func byte() throws -> UInt8 {
            guard index < bytes.count else { throw Damage(description: "ends early") }
            defer { index += 1 }
            return bytes[index]
        }

        mutating func varint() throws -> UInt64 {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                let byte = try byte()
                guard shift < 64 else { throw Damage(description: "varint too long") }
                value |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { return value }
                shift += 7
            }
        }

        mutating func count() throws -> Int {
            let value = try varint()
            guard value <= UInt64(bytes.count) else { throw Damage(description: "count out of range") }
            return Int(value)
        }

        mutating func signed() throws -> Int64 {
            let value = try varint()
            return Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
        }

        mutating func int32() throws -> Int32 {
            guard let value = Int32(exactly: try signed()) else { throw Damage(description: "32-bit value out of range") }
            return value
        }

        mutating func string() throws -> String {
            let length = try count()
            guard index + length <= bytes.count else { throw Damage(description: "string past the end") }
            defer { index += length }
            return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[index..<(index + length)]), as: UTF8.self)
        }

        mutating func optional<T>(_ read: (inout Reader) throws -> T) throws -> T? {
            switch try byte() {
            case 0: return nil
            case 1: return try read(&self)
            case let other: throw Damage(description: "presence byte \(other)")
            }
        }

        mutating func location(_ source: String) throws -> RecordLocation {
            let line = try count()
            return RecordLocation(source: source, line: line, path: try optional { try $0.string() })
        }

        mutating func identifier() throws -> CompactIdentifier {
            switch try byte() {
            case 0: return .number(try varint())
            case 1: return .text(try string())
            case let other: throw Damage(description: "identifier tag \(other)")
            }
        }

        mutating func kept() throws -> KeptPayload {
            switch try byte() {
            case 0: return .ignored
            case 1: return .transaction(try transaction())
            case 2: return .renewalInfo(try renewal())
            case 3: return .notification(try notification())
            case let other: throw Damage(description: "payload tag \(other)")
            }
        }

        mutating func transaction() throws -> SubscriptionTransaction {
            let transactionIdentifier = try identifier()
            let identity: SubscriptionIdentity
            switch try varint() {
            case 0:
                guard let lastIdentity else { throw Damage(description: "identity reference without an identity") }
                identity = lastIdentity
            case 1:
                identity = SubscriptionIdentity(
                    originalTransactionId: try string(), appAccountToken: try optional { try $0.string() },
                    appTransactionId: try optional { try $0.string() })
                lastIdentity = identity
            case let other: throw Damage(description: "identity tag \(other)")
            }
            let purchaseDate = try signed()
            let expiresDate = try signed()
            let revocationDate = try optional { try $0.signed() }
            let signedDate = try signed()
            let commitmentExpiresDate = try optional { try $0.signed() }
            let offerType = try optional { try $0.int32() }
            let isUpgraded = try byte() == 1
            return SubscriptionTransaction(
                transactionIdentifier: transactionIdentifier, identity: identity, purchaseDate: purchaseDate, expiresDate: expiresDate,
                revocationDate: revocationDate, signedDate: signedDate, isUpgraded: isUpgraded, offerType: offerType,
                commitmentExpiresDate: commitmentExpiresDate, attributes: try attributesReference())
        }

        mutating func attributesReference() throws -> TransactionAttributes {
            let index = try count()
            if index < attributes.count { return attributes[index] }
            guard index == attributes.count else { throw Damage(description: "attributes index \(index) skips ahead") }
            let read = TransactionAttributes(
                productId: try string(), subscriptionGroupIdentifier: try optional { try $0.string() }, type: try string(),
                offerIdentifier: try optional { try $0.string() }, offerDiscountType: try optional { try $0.string() },
                offerPeriod: try optional { try $0.string() }, storefront: try optional { try $0.string() },
                inAppOwnershipType: try optional { try $0.string() }, billingPlanType: try optional { try $0.string() },
                commitmentBillingPeriodNumber: try optional { try $0.int32() },
                commitmentTotalBillingPeriods: try optional { try $0.int32() },
                price: try optional { try $0.signed() }, currency: try optional { try $0.string() },
                revocationPercentage: try optional { try $0.int32() })
            let shared = compactor.intern(read)
            attributes.append(shared)
            return shared
        }

        mutating func renewal() throws -> RenewalState {
            RenewalState(
                originalId: try identifier(), signedDate: try signed(), autoRenewStatus: try optional { try $0.int32() },
                autoRenewProductId: try optional { try $0.string() }.map { compactor.intern($0) },
                expirationIntent: try optional { try $0.int32() }, isInBillingRetryPeriod: try optional { try $0.byte() == 1 },
                gracePeriodExpiresDate: try optional { try $0.signed() }, priceIncreaseStatus: try optional { try $0.int32() },
                eligibleWinBackOfferIds: try optional { reader in
                    var ids: [String] = []
                    for _ in 0..<(try reader.count()) { ids.append(try reader.string()) }
                    return ids
                }, renewalBillingPlanType: try optional { try $0.string() }, commitmentAutoRenewStatus: try optional { try $0.int32() })
        }

        mutating func notification() throws -> NotificationEvent {
            let key: NotificationEvent.Key
            switch try byte() {
            case 0:
                guard index + 16 <= bytes.count else { throw Damage(description: "UUID past the end") }
                var uuid = UUID().uuid
                withUnsafeMutableBytes(of: &uuid) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[index..<(index + 16)])) }
                index += 16
                key = .uuid(UUID(uuid: uuid))
            case 1: key = .text(try string())
            case let other: throw Damage(description: "notification key tag \(other)")
            }
            var event = NotificationEvent(
                notificationUUID: "", notificationType: compactor.intern(try string()),
                subtype: try optional { try $0.string() }.map {
                    compactor.intern($0)
                }, signedDate: try signed(), originalTransactionId: nil)
            event.key = key
            event.subscription = try optional { try $0.identifier() }
            event.transaction = try optional { try $0.identifier() }
            event.consumptionRequestReason = try optional { try $0.string() }.map { compactor.intern($0) }
            return event
        }
    }
}
