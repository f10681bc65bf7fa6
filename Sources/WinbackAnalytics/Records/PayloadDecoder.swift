import WinbackAppStore

/// The checks every payload gets after its signature (or, for a trusted decoded payload, instead of one),
/// in the check order of docs/inputs.md: app identifier → environment → field types → required fields.
public struct PayloadDecoder: Sendable {
    /// The app payloads must belong to (`bundleId`, `environment`, `appAppleId`).
    public var app: AppIdentity

    /// A decoder checking payloads against `app`.
    public init(app: AppIdentity) {
        self.app = app
    }

    /// Decodes `payload` (a JSON object) as `kind`, or throws the first failing check.
    public func decode(_ payload: JSONValue, as kind: PayloadKind) throws(RecordFailure) -> (AcceptedPayload, [String]) {
        guard case .object(let members) = payload else {
            throw RecordFailure(.malformedJWS, "payload is a JSON \(payload.typeName), expected an object")
        }
        switch kind {
        case .transaction:
            try checkBundleId(payload["bundleId"], field: "bundleId")
            try checkEnvironment(payload["environment"], field: "environment")
            let transaction: JWSTransactionDecodedPayload
            do { transaction = try JWSTransactionDecodedPayload(members: members) } catch { throw RecordFailure(error) }
            try Self.requireTransactionFields(transaction)
            return (.transaction(transaction), transaction.unknownEnumValues())
        case .renewalInfo:
            try checkEnvironment(payload["environment"], field: "environment")
            let renewalInfo: JWSRenewalInfoDecodedPayload
            do { renewalInfo = try JWSRenewalInfoDecodedPayload(members: members) } catch { throw RecordFailure(error) }
            guard renewalInfo.originalTransactionId != nil else { throw .missing("originalTransactionId") }
            guard renewalInfo.signedDate != nil else { throw .missing("signedDate") }
            return (.renewalInfo(renewalInfo), renewalInfo.unknownEnumValues())
        case .notification:
            try checkNotificationSource(payload)
            let notification: ResponseBodyV2DecodedPayload
            do { notification = try ResponseBodyV2DecodedPayload(members: members) } catch { throw RecordFailure(error) }
            guard notification.signedDate != nil else { throw .missing("signedDate") }
            return (.notification(notification), notification.unknownEnumValues())
        }
    }

    static func requireTransactionFields(_ transaction: JWSTransactionDecodedPayload) throws(RecordFailure) {
        guard transaction.transactionId != nil else { throw .missing("transactionId") }
        guard transaction.originalTransactionId != nil else { throw .missing("originalTransactionId") }
        guard transaction.productId != nil else { throw .missing("productId") }
        guard transaction.purchaseDate != nil else { throw .missing("purchaseDate") }
        guard transaction.rawType != nil else { throw .missing("type") }
        guard transaction.signedDate != nil else { throw .missing("signedDate") }
        if transaction.type == .autoRenewableSubscription, transaction.expiresDate == nil {
            throw .missing("expiresDate")
        }
    }

    private static func found(_ value: JSONValue?) -> String {
        guard let value, value != .null else { return "none" }
        return FieldValue.describe(value)
    }

    private func checkBundleId(_ value: JSONValue?, field: String) throws(RecordFailure) {
        guard value?.stringValue == app.bundleId else {
            throw RecordFailure(.invalidAppIdentifier, "\(field): expected '\(app.bundleId)', found \(Self.found(value))")
        }
    }

    private func checkEnvironment(_ value: JSONValue?, field: String) throws(RecordFailure) {
        guard value?.stringValue == app.environment else {
            throw RecordFailure(
                .invalidEnvironment, "\(field): expected '\(app.environment)', found \(Self.found(value))")
        }
    }

    /// Apple's notification checks: the first present of `data`, `summary`, `externalPurchaseToken`,
    /// `appData` carries the bundle id, the appAppleId (checked in Production only) and the environment
    /// (for an external purchase token, `SANDBOX…` ids are Sandbox, all others Production).
    private func checkNotificationSource(_ payload: JSONValue) throws(RecordFailure) {
        let sourceKey = ["data", "summary", "externalPurchaseToken", "appData"].first {
            if let value = payload[$0], value != .null { return true }
            return false
        }
        guard let sourceKey, let source = payload[sourceKey] else {
            throw RecordFailure(
                .invalidAppIdentifier,
                "bundleId: expected '\(app.bundleId)', found none (no data, summary, externalPurchaseToken or appData)")
        }
        try checkBundleId(source["bundleId"], field: "\(sourceKey).bundleId")
        if app.environment == AppStoreEnvironment.production.rawValue {
            let appAppleId = source["appAppleId"]
            guard case .integer(let value) = appAppleId, value == app.appAppleId else {
                throw RecordFailure(
                    .invalidAppIdentifier,
                    "\(sourceKey).appAppleId: expected \(app.appAppleId.map(String.init) ?? "none"), found \(Self.found(appAppleId))")
            }
        }
        if sourceKey == "externalPurchaseToken" {
            let id = source["externalPurchaseId"]?.stringValue ?? ""
            let environment = id.hasPrefix("SANDBOX") ? "Sandbox" : "Production"
            try checkEnvironment(.string(environment), field: "externalPurchaseToken.externalPurchaseId (environment)")
        } else {
            try checkEnvironment(source["environment"], field: "\(sourceKey).environment")
        }
    }
}
