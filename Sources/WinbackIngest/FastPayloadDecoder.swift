import WinbackAnalytics
import WinbackAppStore

/// Decodes the common case of a transaction or renewal-info payload straight from its bytes into the compact
/// form the model keeps (``KeptPayload``), skipping the JSON tree, the full Apple model and its strings.
///
/// It succeeds only when the general path (``JSONParser`` → ``PayloadDecoder`` → ``PayloadCompactor``)
/// would accept the payload without a warning and keep exactly the same value: a flat object of known
/// keys (``FlatJSONScanner``, with `commitmentInfo` as a nested object of known keys), every field of its Apple type, the app's `bundleId` and `environment`, the
/// required fields present, every enum value known. Otherwise it returns `nil` and the caller takes the
/// general path, so rejections, warnings and unusual payloads are handled in one place.
public struct FastPayloadDecoder: Sendable {
    /// The shared tables payloads are kept through.
    public let compactor: PayloadCompactor
    private let bundleId: [UInt8]
    private let environment: [UInt8]

    /// A decoder of `app`'s payloads, keeping them through `compactor`.
    public init(app: AppIdentity, compactor: PayloadCompactor) {
        self.compactor = compactor
        bundleId = Array(app.bundleId.utf8)
        environment = Array(app.environment.utf8)
    }

    /// The payload's `signedDate` (epoch milliseconds) and kept form, or `nil` to decode it the general way.
    /// Notifications always take the general path. Values are interned through the worker's `cache` (one
    /// task at a time) first.
    public func decode(_ bytes: UnsafeBufferPointer<UInt8>, as kind: PayloadKind, cache: WorkerCache) -> (
        signedDate: Int64, kept: KeptPayload
    )? {
        switch kind {
        case .transaction: decodeTransaction(bytes, cache: cache)
        case .renewalInfo: decodeRenewalInfo(bytes, cache: cache)
        case .notification: nil
        }
    }

    // MARK: Transactions

    /// The members of `JWSTransactionDecodedPayload` the scanner handles (all but `advancedCommerceInfo`),
    /// named as Apple's keys; the raw value is the member's slot.
    enum TransactionField: Int, CaseIterable {
        case originalTransactionId, transactionId, webOrderLineItemId, bundleId, productId, subscriptionGroupIdentifier
        case purchaseDate, originalPurchaseDate, expiresDate, quantity, type, appAccountToken, inAppOwnershipType
        case signedDate, revocationReason, revocationDate, isUpgraded, offerType, offerIdentifier, environment
        case storefront, storefrontId, transactionReason, currency, price, offerDiscountType, appTransactionId
        case offerPeriod, revocationType, revocationPercentage, billingPlanType, commitmentInfo

        /// The JSON type the general decoder requires (`FieldValue.string/int64/int32/bool`).
        var expected: FieldType {
            switch self {
            case .purchaseDate, .originalPurchaseDate, .expiresDate, .signedDate, .revocationDate: .instant
            case .price: .int64
            case .quantity, .revocationReason, .offerType, .revocationPercentage: .int32
            case .isUpgraded: .bool
            case .commitmentInfo: .object
            default: .string
            }
        }
    }

    /// The members of `TransactionCommitmentInfo`.
    enum TransactionCommitmentField: Int, CaseIterable {
        case billingPeriodNumber, commitmentExpiresDate, commitmentPrice, totalBillingPeriods

        var expected: FieldType {
            switch self {
            case .billingPeriodNumber, .totalBillingPeriods: .int32
            case .commitmentExpiresDate: .instant
            case .commitmentPrice: .int64
            }
        }
    }

    private static let transactionKeys = FlatKeyTable(TransactionField.allCases.map { String(describing: $0) })
    private static let transactionTypes = TransactionField.allCases.map(\.expected)
    private static let transactionCommitmentKeys = FlatKeyTable(TransactionCommitmentField.allCases.map { String(describing: $0) })
    private static let transactionCommitmentTypes = TransactionCommitmentField.allCases.map(\.expected)

    private func decodeTransaction(_ bytes: UnsafeBufferPointer<UInt8>, cache: WorkerCache) -> (signedDate: Int64, kept: KeptPayload)? {
        typealias F = TransactionField
        return withUnsafeTemporaryAllocation(of: FlatValue.self, capacity: F.allCases.count) {
            (slots) -> (signedDate: Int64, kept: KeptPayload)? in
            slots.initialize(repeating: .absent)
            guard FlatJSONScanner.scan(bytes, keys: Self.transactionKeys, into: slots),
                Self.haveTypes(slots, Self.transactionTypes)
            else { return nil }
            func text(_ field: F) -> UnsafeBufferPointer<UInt8>? {
                let value = slots[field.rawValue]
                return value.kind == .string ? UnsafeBufferPointer(rebasing: bytes[value.range]) : nil
            }
            func string(_ field: F) -> String? { text(field).map { String(decoding: $0, as: UTF8.self) } }
            func integer(_ field: F) -> Int64? { slots[field.rawValue].kind == .integer ? slots[field.rawValue].integer : nil }

            // PayloadDecoder's checks, in its order; any failure is left to it.
            guard let bundle = text(.bundleId), bundle.elementsEqual(bundleId),
                let environmentText = text(.environment), environmentText.elementsEqual(environment),
                Self.isKnown(environmentText, Self.environments),
                let transactionId = text(.transactionId), let originalTransactionId = text(.originalTransactionId),
                let productId = text(.productId), let purchaseDate = integer(.purchaseDate),
                let type = text(.type), let signedDate = integer(.signedDate),
                Self.isKnown(type, Self.productTypes)
            else { return nil }
            let isAutoRenewable = type.elementsEqual(ProductType.autoRenewableSubscription.rawValue.utf8)
            guard !isAutoRenewable || integer(.expiresDate) != nil,
                Self.isKnownIfPresent(text(.inAppOwnershipType), Self.ownershipTypes),
                Self.isKnownIfPresent(text(.transactionReason), Self.transactionReasons),
                Self.isKnownIfPresent(text(.offerDiscountType), Self.offerDiscountTypes),
                Self.isKnownIfPresent(text(.revocationType), Self.revocationTypes),
                Self.isKnownIfPresent(text(.billingPlanType), Self.billingPlanTypes),
                integer(.revocationReason).map({ RevocationReason(rawValue: Int32($0)) != nil }) ?? true,
                integer(.offerType).map({ OfferType(rawValue: Int32($0)) != nil }) ?? true
            else { return nil }
            typealias C = TransactionCommitmentField
            guard
                let commitment = Self.withNested(
                    slots[F.commitmentInfo.rawValue], in: bytes, keys: Self.transactionCommitmentKeys,
                    types: Self.transactionCommitmentTypes,
                    { nested, _ in
                        (
                            period: nested[C.billingPeriodNumber.rawValue].int32, expires: nested[C.commitmentExpiresDate.rawValue].int64,
                            total: nested[C.totalBillingPeriods.rawValue].int32
                        )
                    })
            else { return nil }

            // SubscriptionTransaction.init(_:attributes:), from the bytes.
            let attributes = compactor.intern(
                AttributeBytes(
                    productId: productId, subscriptionGroupIdentifier: text(.subscriptionGroupIdentifier), type: type,
                    offerIdentifier: text(.offerIdentifier), offerDiscountType: text(.offerDiscountType), offerPeriod: text(.offerPeriod),
                    storefront: text(.storefront), inAppOwnershipType: text(.inAppOwnershipType), billingPlanType: text(.billingPlanType),
                    commitmentBillingPeriodNumber: commitment.period, commitmentTotalBillingPeriods: commitment.total,
                    price: integer(.price), currency: text(.currency),
                    revocationPercentage: integer(.revocationPercentage).map { Int32($0) }),
                cache: cache)
            let transaction = SubscriptionTransaction(
                transactionIdentifier: CompactIdentifier(utf8: transactionId),
                identity: compactor.identity(
                    originalTransactionId: originalTransactionId, appAccountToken: text(.appAccountToken),
                    appTransactionId: text(.appTransactionId), cache: cache
                ) {
                    SubscriptionIdentity(
                        originalTransactionId: String(decoding: originalTransactionId, as: UTF8.self),
                        appAccountToken: text(.appAccountToken).flatMap { $0.isEmpty ? nil : Self.asciiLowercased($0) },
                        appTransactionId: string(.appTransactionId))
                },
                purchaseDate: purchaseDate, expiresDate: integer(.expiresDate) ?? purchaseDate, revocationDate: integer(.revocationDate),
                signedDate: signedDate, isUpgraded: slots[F.isUpgraded.rawValue].kind == .bool && slots[F.isUpgraded.rawValue].integer == 1,
                offerType: integer(.offerType).map { Int32($0) }, commitmentExpiresDate: commitment.expires, attributes: attributes)
            return (signedDate, .transaction(transaction))
        }
    }

    // MARK: Renewal infos

    /// The members of `JWSRenewalInfoDecodedPayload` the scanner handles (all but `advancedCommerceInfo`).
    enum RenewalField: Int, CaseIterable {
        case expirationIntent, originalTransactionId, autoRenewProductId, productId, autoRenewStatus, isInBillingRetryPeriod
        case priceIncreaseStatus, gracePeriodExpiresDate, offerType, offerIdentifier, signedDate, environment
        case recentSubscriptionStartDate, renewalDate, currency, renewalPrice, offerDiscountType, eligibleWinBackOfferIds
        case appAccountToken, appTransactionId, offerPeriod, renewalBillingPlanType, commitmentInfo

        var expected: FieldType {
            switch self {
            case .gracePeriodExpiresDate, .signedDate, .recentSubscriptionStartDate, .renewalDate: .instant
            case .renewalPrice: .int64
            case .expirationIntent, .autoRenewStatus, .priceIncreaseStatus, .offerType: .int32
            case .isInBillingRetryPeriod: .bool
            case .eligibleWinBackOfferIds: .stringArray
            case .commitmentInfo: .object
            default: .string
            }
        }
    }

    /// The members of `RenewalCommitmentInfo`.
    enum RenewalCommitmentField: Int, CaseIterable {
        case commitmentAutoRenewProductId, commitmentAutoRenewStatus, commitmentRenewalBillingPlanType, commitmentRenewalDate
        case commitmentRenewalPrice

        var expected: FieldType {
            switch self {
            case .commitmentAutoRenewProductId, .commitmentRenewalBillingPlanType: .string
            case .commitmentAutoRenewStatus: .int32
            case .commitmentRenewalDate: .instant
            case .commitmentRenewalPrice: .int64
            }
        }
    }

    private static let renewalKeys = FlatKeyTable(RenewalField.allCases.map { String(describing: $0) })
    private static let renewalTypes = RenewalField.allCases.map(\.expected)
    private static let renewalCommitmentKeys = FlatKeyTable(RenewalCommitmentField.allCases.map { String(describing: $0) })
    private static let renewalCommitmentTypes = RenewalCommitmentField.allCases.map(\.expected)

    private func decodeRenewalInfo(_ bytes: UnsafeBufferPointer<UInt8>, cache: WorkerCache) -> (signedDate: Int64, kept: KeptPayload)? {
        typealias F = RenewalField
        return withUnsafeTemporaryAllocation(of: FlatValue.self, capacity: F.allCases.count) {
            (slots) -> (signedDate: Int64, kept: KeptPayload)? in
            slots.initialize(repeating: .absent)
            guard FlatJSONScanner.scan(bytes, keys: Self.renewalKeys, into: slots), Self.haveTypes(slots, Self.renewalTypes) else {
                return nil
            }
            func text(_ field: F) -> UnsafeBufferPointer<UInt8>? {
                let value = slots[field.rawValue]
                return value.kind == .string ? UnsafeBufferPointer(rebasing: bytes[value.range]) : nil
            }
            func int32(_ field: F) -> Int32? { slots[field.rawValue].kind == .integer ? Int32(slots[field.rawValue].integer) : nil }
            func bool(_ field: F) -> Bool? { slots[field.rawValue].kind == .bool ? slots[field.rawValue].integer == 1 : nil }
            func string(_ field: F) -> String? { text(field).map { String(decoding: $0, as: UTF8.self) } }

            let gracePeriod = slots[F.gracePeriodExpiresDate.rawValue]
            let signed = slots[F.signedDate.rawValue]
            guard let environmentText = text(.environment), environmentText.elementsEqual(environment),
                Self.isKnown(environmentText, Self.environments),
                let originalTransactionId = text(.originalTransactionId), signed.kind == .integer,
                int32(.expirationIntent).map({ ExpirationIntent(rawValue: $0) != nil }) ?? true,
                int32(.autoRenewStatus).map({ AutoRenewStatus(rawValue: $0) != nil }) ?? true,
                int32(.priceIncreaseStatus).map({ PriceIncreaseStatus(rawValue: $0) != nil }) ?? true,
                int32(.offerType).map({ OfferType(rawValue: $0) != nil }) ?? true,
                Self.isKnownIfPresent(text(.offerDiscountType), Self.offerDiscountTypes),
                Self.isKnownIfPresent(text(.renewalBillingPlanType), Self.renewalBillingPlanTypes)
            else { return nil }
            typealias C = RenewalCommitmentField
            // The commitment's auto-renew status, when every enum in it is known (else a warning: the general path).
            guard
                let commitment = Self.withNested(
                    slots[F.commitmentInfo.rawValue], in: bytes, keys: Self.renewalCommitmentKeys, types: Self.renewalCommitmentTypes,
                    { nested, object -> (known: Bool, autoRenewStatus: Int32?) in
                        let status = nested[C.commitmentAutoRenewStatus.rawValue].int32
                        let plan = nested[C.commitmentRenewalBillingPlanType.rawValue]
                        let planText = plan.kind == .string ? UnsafeBufferPointer(rebasing: object[plan.range]) : nil
                        let known =
                            (status.map { AutoRenewStatus(rawValue: $0) != nil } ?? true)
                            && Self.isKnownIfPresent(planText, Self.renewalBillingPlanTypes)
                        return (known, status)
                    }), commitment.known
            else { return nil }

            var offerIds: [String]?
            let array = slots[F.eligibleWinBackOfferIds.rawValue]
            if array.kind == .stringArray { offerIds = Self.strings(in: UnsafeBufferPointer(rebasing: bytes[array.range])) }
            let state = RenewalState(
                originalId: CompactIdentifier(utf8: originalTransactionId), signedDate: signed.integer,
                autoRenewStatus: int32(.autoRenewStatus),
                autoRenewProductId: text(.autoRenewProductId).map { compactor.internProductId($0, cache: cache) },
                expirationIntent: int32(.expirationIntent), isInBillingRetryPeriod: bool(.isInBillingRetryPeriod),
                gracePeriodExpiresDate: gracePeriod.kind == .integer ? gracePeriod.integer : nil,
                priceIncreaseStatus: int32(.priceIncreaseStatus),
                eligibleWinBackOfferIds: offerIds, renewalBillingPlanType: string(.renewalBillingPlanType),
                commitmentAutoRenewStatus: commitment.autoRenewStatus)
            return (signed.integer, .renewalInfo(state))
        }
    }

    // MARK: Shared checks

    /// The JSON type a field must have when present (`null` reads as absent).
    enum FieldType {
        /// `instant`: an integer within ``FieldValue/instantRange`` (`FieldValue.instant`); `object`: a
        /// nested object, whose members are checked by its own field list.
        case string, int64, int32, bool, stringArray, instant, object
    }

    /// `body` applied to the slots of the nested object `value` (a member of `bytes`) scanned with `keys`
    /// (all absent when the member is absent or `null`) and to the object's bytes; `nil` when the object
    /// has an unknown or repeated key or a value not of its field's type (the general path decides then).
    private static func withNested<Result>(
        _ value: FlatValue, in bytes: UnsafeBufferPointer<UInt8>, keys: FlatKeyTable, types: [FieldType],
        _ body: (UnsafeMutableBufferPointer<FlatValue>, UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result? {
        withUnsafeTemporaryAllocation(of: FlatValue.self, capacity: types.count) { nested -> Result? in
            nested.initialize(repeating: .absent)
            let object =
                value.kind == .object ? UnsafeBufferPointer(rebasing: bytes[value.range]) : UnsafeBufferPointer(start: nil, count: 0)
            if value.kind == .object {
                guard FlatJSONScanner.scan(object, keys: keys, into: nested), haveTypes(nested, types) else { return nil }
            }
            return body(nested, object)
        }
    }

    /// Every present value has its field's type (an `int32` fits in 32 bits, an instant is in range).
    private static func haveTypes(_ slots: UnsafeMutableBufferPointer<FlatValue>, _ types: [FieldType]) -> Bool {
        for (value, type) in zip(slots, types) where value.isPresent {
            switch type {
            case .string: guard value.kind == .string else { return false }
            case .int64: guard value.kind == .integer else { return false }
            case .instant: guard value.kind == .integer, FieldValue.instantRange.contains(value.integer) else { return false }
            case .int32: guard value.kind == .integer, Int32(exactly: value.integer) != nil else { return false }
            case .bool: guard value.kind == .bool else { return false }
            case .stringArray: guard value.kind == .stringArray else { return false }
            case .object: guard value.kind == .object else { return false }
            }
        }
        return true
    }

    private static func rawValues<E: AppleEnum>(_: E.Type) -> [[UInt8]] where E.RawValue == String {
        E.allCases.map { Array($0.rawValue.utf8) }
    }

    private static let environments = rawValues(AppStoreEnvironment.self)
    private static let productTypes = rawValues(ProductType.self)
    private static let ownershipTypes = rawValues(InAppOwnershipType.self)
    private static let transactionReasons = rawValues(TransactionReason.self)
    private static let offerDiscountTypes = rawValues(OfferDiscountType.self)
    private static let revocationTypes = rawValues(RevocationType.self)
    private static let billingPlanTypes = rawValues(BillingPlanType.self)
    private static let renewalBillingPlanTypes = rawValues(RenewalBillingPlanType.self)

    private static func isKnown(_ text: UnsafeBufferPointer<UInt8>, _ known: [[UInt8]]) -> Bool {
        known.contains { $0.elementsEqual(text) }
    }

    private static func isKnownIfPresent(_ text: UnsafeBufferPointer<UInt8>?, _ known: [[UInt8]]) -> Bool {
        text.map { isKnown($0, known) } ?? true
    }

    /// `String.lowercased()` for ASCII text (the scanner admits nothing else).
    private static func asciiLowercased(_ text: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: text.count) { buffer in
            for (offset, byte) in text.enumerated() {
                buffer[offset] = ByteSpelling.lowercased(byte)
            }
            return text.count
        }
    }

    /// The strings of a scanned string array's contents (plain strings: each lies between two quotes).
    private static func strings(in contents: UnsafeBufferPointer<UInt8>) -> [String] {
        var strings: [String] = []
        var start: Int?
        for (offset, byte) in contents.enumerated() where byte == UInt8(ascii: "\"") {
            if let open = start {
                strings.append(String(decoding: UnsafeBufferPointer(rebasing: contents[(open + 1)..<offset]), as: UTF8.self))
                start = nil
            } else {
                start = offset
            }
        }
        return strings
    }
}
