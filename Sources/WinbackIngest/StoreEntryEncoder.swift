import Crypto
import Foundation
import WinbackAnalytics

/// Writes one input file's outcomes, in input order, in the verified store's entry format (docs/verified-store.md), so
/// a later run can replay them without verifying the file again.
///
/// Format, version ``formatVersion`` (little-endian; `varint` is LEB128, signed values zigzag-encoded;
/// `string` is a varint length and UTF-8 bytes; an optional value is a byte 0 when absent, else 1 and the value):
/// - header: the bytes `WBVS`, the version byte;
/// - per outcome: tag 1 (accepted) or 2 (rejected), then the line (varint) and path (optional string);
///   - accepted: warnings (varint count, strings), then the kept payload: tag 0 ignored, 1 transaction,
///     2 renewal info, 3 notification, with its fields in declaration order. A transaction's attributes
///     are an index into the entry's attributes table (a new index is followed by the attributes' fields)
///     and its identity is either "as the previous transaction's" (0) or given (1 + three strings);
///   - rejected: code (string), message (string), record (string), recordBase64 (optional string);
/// - end: tag 0, the entry's key (UTF-8: its input's config-relative path, size, SHA-256 and the verifier
///   digest, one per line; ``key(path:size:sha256:verifierDigest:)``), the key's length (4 bytes), then the
///   SHA-256 of every byte before it (32 bytes). The checksum and the key are checked before anything is
///   used: an entry copied under another file's name, or written under another verifier digest, is refused.
///
/// A **keyed** entry — a shard's (docs/sharding.md), holding only that shard's records of the file — starts with
/// `WBVK` instead, and each outcome's tag is followed by the record's index on its line (a varint; with
/// the location's line it is the ``RecordOrder`` the merge sorts the shards' outcomes by).
public struct StoreEntryEncoder {
    /// The entry format's version; part of the store's verifier digest, so a new version never reads an old entry.
    public static let formatVersion: UInt8 = 3
    /// The first bytes of every entry.
    public static let magic: [UInt8] = Array("WBVS".utf8)
    /// The first bytes of a keyed entry (a shard's).
    public static let keyedMagic: [UInt8] = Array("WBVK".utf8)

    /// Encoded bytes not yet taken by ``takeBytes()``.
    private var buffer: [UInt8] = []
    private var digest = SHA256()
    private var attributes: [ObjectIdentifier: Int] = [:]
    private var lastIdentity: SubscriptionIdentity?
    private let isKeyed: Bool

    /// An encoder whose first bytes are the header; `keyed` for a shard's entry (``append(_:orderIndex:)``).
    public init(keyed: Bool = false) {
        buffer = (keyed ? Self.keyedMagic : Self.magic) + [Self.formatVersion]
        isKeyed = keyed
    }

    /// Appends `outcome` (read from `source`, the entry's file) to a plain entry.
    public mutating func append(_ outcome: RecordOutcome) {
        append(outcome, index: nil)
    }

    /// Appends `outcome` to a keyed entry, with its record's index on its line (``RecordOrder/index``).
    public mutating func append(_ outcome: RecordOutcome, orderIndex: Int) {
        append(outcome, index: orderIndex)
    }

    private mutating func append(_ outcome: RecordOutcome, index: Int?) {
        precondition(isKeyed == (index != nil), "a keyed entry needs every outcome's order, a plain one none")
        switch outcome {
        case .accepted(let record):
            buffer.append(1)
            if let index { varint(UInt64(index)) }
            location(record.location)
            varint(UInt64(record.warnings.count))
            for warning in record.warnings { string(warning) }
            kept(record.kept)
        case .rejected(let rejection):
            buffer.append(2)
            if let index { varint(UInt64(index)) }
            location(rejection.location)
            string(rejection.code.rawValue)
            string(rejection.message)
            string(rejection.record)
            optionalString(rejection.recordBase64)
        }
    }

    /// The bytes encoded since the last call (to write out), folded into the entry's checksum.
    public mutating func takeBytes() -> [UInt8] {
        digest.update(data: buffer)
        defer { buffer.removeAll(keepingCapacity: true) }
        return buffer
    }

    /// The key an entry of `path` (config-relative) with `size` bytes and SHA-256 `sha256`, verified under
    /// `verifierDigest`, carries inside its checksummed content.
    public static func key(path: String, size: Int, sha256: String, verifierDigest: String) -> String {
        "\(path)\n\(size)\n\(sha256)\n\(verifierDigest)"
    }

    /// The entry's last bytes: the end tag, its `key` (``key(path:size:sha256:verifierDigest:)``) and the
    /// checksum of everything before it.
    public mutating func finish(key: String) -> [UInt8] {
        buffer.append(0)
        let keyBytes = Array(key.utf8)
        buffer += keyBytes
        let length = UInt32(keyBytes.count)
        buffer += [UInt8(length & 0xFF), UInt8((length >> 8) & 0xFF), UInt8((length >> 16) & 0xFF), UInt8(length >> 24)]
        var tail = takeBytes()
        tail += Array(digest.finalize())
        return tail
    }

    private mutating func location(_ location: RecordLocation) {
        varint(UInt64(location.line))
        optionalString(location.path)
    }

    private mutating func kept(_ kept: KeptPayload) {
        switch kept {
        case .ignored: buffer.append(0)
        case .transaction(let transaction):
            buffer.append(1)
            identifier(transaction.transactionIdentifier)
            if let lastIdentity, lastIdentity == transaction.identity {
                varint(0)
            } else {
                varint(1)
                string(transaction.identity.originalTransactionId)
                optionalString(transaction.identity.appAccountToken)
                optionalString(transaction.identity.appTransactionId)
                lastIdentity = transaction.identity
            }
            signed(transaction.purchaseDate)
            signed(transaction.expiresDate)
            optionalSigned(transaction.revocationDate)
            signed(transaction.signedDate)
            optionalSigned(transaction.commitmentExpiresDate)
            optionalSigned(transaction.offerType.map(Int64.init))
            buffer.append(transaction.isUpgraded ? 1 : 0)
            attributesReference(transaction.attributes)
        case .renewalInfo(let renewal):
            buffer.append(2)
            identifier(renewal.originalId)
            signed(renewal.signedDate)
            optionalSigned(renewal.autoRenewStatus.map(Int64.init))
            optionalString(renewal.autoRenewProductId)
            optionalSigned(renewal.expirationIntent.map(Int64.init))
            optionalVarint(renewal.isInBillingRetryPeriod.map { $0 ? 1 : 0 })
            optionalSigned(renewal.gracePeriodExpiresDate)
            optionalSigned(renewal.priceIncreaseStatus.map(Int64.init))
            if present(renewal.eligibleWinBackOfferIds != nil), let ids = renewal.eligibleWinBackOfferIds {
                varint(UInt64(ids.count))
                for id in ids { string(id) }
            }
            optionalString(renewal.renewalBillingPlanType)
            optionalSigned(renewal.commitmentAutoRenewStatus.map(Int64.init))
        case .notification(let event):
            buffer.append(3)
            switch event.key {
            case .uuid(let uuid):
                buffer.append(0)
                withUnsafeBytes(of: uuid.uuid) { buffer.append(contentsOf: $0) }
            case .text(let text):
                buffer.append(1)
                string(text)
            }
            string(event.notificationType)
            optionalString(event.subtype)
            signed(event.signedDate)
            optionalIdentifier(event.subscription)
            optionalIdentifier(event.transaction)
            optionalString(event.consumptionRequestReason)
        }
    }

    private mutating func attributesReference(_ attributes: TransactionAttributes) {
        if let index = self.attributes[ObjectIdentifier(attributes)] {
            varint(UInt64(index))
            return
        }
        let index = self.attributes.count
        self.attributes[ObjectIdentifier(attributes)] = index
        varint(UInt64(index))
        string(attributes.productId)
        optionalString(attributes.subscriptionGroupIdentifier)
        string(attributes.type)
        optionalString(attributes.offerIdentifier)
        optionalString(attributes.offerDiscountType)
        optionalString(attributes.offerPeriod)
        optionalString(attributes.storefront)
        optionalString(attributes.inAppOwnershipType)
        optionalString(attributes.billingPlanType)
        optionalSigned(attributes.commitmentBillingPeriodNumber.map(Int64.init))
        optionalSigned(attributes.commitmentTotalBillingPeriods.map(Int64.init))
        optionalSigned(attributes.price)
        optionalString(attributes.currency)
        optionalSigned(attributes.revocationPercentage.map(Int64.init))
    }

    private mutating func identifier(_ identifier: CompactIdentifier) {
        switch identifier {
        case .number(let value):
            buffer.append(0)
            varint(value)
        case .text(let text):
            buffer.append(1)
            string(text)
        }
    }

    private mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            buffer.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        buffer.append(UInt8(value))
    }

    private mutating func signed(_ value: Int64) { varint(UInt64(bitPattern: (value << 1) ^ (value >> 63))) }

    private mutating func string(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            varint(UInt64(bytes.count))
            buffer.append(contentsOf: bytes)
        }
    }

    private mutating func present(_ isPresent: Bool) -> Bool {
        buffer.append(isPresent ? 1 : 0)
        return isPresent
    }

    private mutating func optionalString(_ value: String?) { if present(value != nil), let value { string(value) } }
    private mutating func optionalSigned(_ value: Int64?) { if present(value != nil), let value { signed(value) } }
    private mutating func optionalVarint(_ value: UInt64?) { if present(value != nil), let value { varint(value) } }
    private mutating func optionalIdentifier(_ value: CompactIdentifier?) { if present(value != nil), let value { identifier(value) } }
}
