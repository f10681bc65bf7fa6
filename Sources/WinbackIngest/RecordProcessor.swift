import WinbackAnalytics
import WinbackCrypto

/// Turns a found record into its outcome: verification for JWS, the trust setting for decoded payloads,
/// and, for an accepted notification, its nested `signedTransactionInfo` / `signedRenewalInfo` as
/// records of their own (path `data.signedTransactionInfo`, relative to the notification payload).
public struct RecordProcessor: Sendable {
    /// Checks each JWS.
    public var verifier: SignedPayloadVerifier
    /// Accept decoded payloads (`trust.acceptUnsignedPayloads`).
    public var acceptUnsignedPayloads: Bool
    /// Builds each accepted payload's compact form on the verifying thread.
    public var compactor: PayloadCompactor
    /// Each worker's cache: header copies, signature buffer and clock, and the fast decoder's tables
    /// (common-shape signed payloads straight into their kept form, through ``compactor``).
    public let caches: WorkerCache.Pool

    /// A processor verifying with `verifier`, keeping accepted payloads through `compactor`.
    public init(verifier: SignedPayloadVerifier, acceptUnsignedPayloads: Bool, compactor: PayloadCompactor = PayloadCompactor()) {
        self.verifier = verifier
        self.acceptUnsignedPayloads = acceptUnsignedPayloads
        self.compactor = compactor
        caches = WorkerCache.Pool(app: verifier.decoder.app, compactor: compactor)
    }

    /// Appends the outcomes of `raw` to `outcomes` (no array per record), verifying with the worker's `cache`.
    public func process(_ raw: RawRecord, into outcomes: inout [RecordOutcome], cache: WorkerCache) async {
        switch raw.content {
        case .failure(let failure):
            outcomes.append(.rejected(Rejection(location: raw.location, failure: failure, text: raw.text)))
        case .decoded(let value, let kind):
            guard acceptUnsignedPayloads else {
                let failure = RecordFailure(
                    .unsignedPayload, "decoded \(kind.rawValue) payload: expected a signed JWS (trust.acceptUnsignedPayloads is false)")
                outcomes.append(.rejected(Rejection(location: raw.location, failure: failure, text: raw.text)))
                return
            }
            do {
                let (payload, warnings) = try verifier.decoder.decode(value, as: kind)
                outcomes.append(.accepted(AcceptedRecord(location: raw.location, kept: compactor.keep(payload), warnings: warnings)))
            } catch {
                outcomes.append(.rejected(Rejection(location: raw.location, failure: error, text: raw.text)))
            }
        case .signed(let jws, let kind):
            let verified: (kept: KeptPayload, model: AcceptedPayload?, warnings: [String])
            do {
                verified = try await verify(jws, as: kind, cache: cache)
            } catch {
                outcomes.append(.rejected(Rejection(location: raw.location, failure: error, text: raw.text)))
                return
            }
            outcomes.append(.accepted(AcceptedRecord(location: raw.location, kept: verified.kept, warnings: verified.warnings)))
            guard case .notification(let notification)? = verified.model, let data = notification.data else { return }
            let notificationIndex = outcomes.count - 1
            let nestedStart = outcomes.count
            for (key, nested, nestedKind) in [
                ("signedTransactionInfo", data.signedTransactionInfo, PayloadKind.transaction),
                ("signedRenewalInfo", data.signedRenewalInfo, .renewalInfo),
            ] {
                guard let nested else { continue }
                var location = raw.location
                location.path = "data.\(key)"
                // A rejected nested record keeps the notification's original text (the whole NDJSON line, or the
                // value's text in a document), so the reject replays as it was read (docs/inputs.md).
                let nestedRecord = RawRecord(location: location, content: .signed(RecordText(nested), nestedKind), text: raw.text)
                await process(nestedRecord, into: &outcomes, cache: cache)
            }
            Self.attribute(&outcomes[notificationIndex], to: outcomes[nestedStart...])
        }
    }

    /// Verifies `jws` as `kind` in the two phases of ``SignedPayloadVerifier``, with the worker's `cache`: a
    /// common-shape payload is decoded straight into its kept form by the worker's fast decoder (no Apple
    /// model: `model` is `nil`), any other the general way (JSON, then the Apple model and its warnings).
    /// Either way the outcome is the same (docs/inputs.md: the check order).
    public func verify(
        _ jws: RecordText, as kind: PayloadKind, cache: WorkerCache
    ) async throws(RecordFailure) -> (kept: KeptPayload, model: AcceptedPayload?, warnings: [String]) {
        let opened = try await verifier.open(jws, scratch: cache.scratch)
        if let (signedDate, kept) = opened.withPayloadJSON({ cache.decodePayload($0, as: kind) }) {
            try verifier.finish(opened, payload: .signedDate(signedDate), scratch: cache.scratch)
            return (kept, nil, [])
        }
        let object = try opened.parsePayload()
        try verifier.finish(opened, payload: .parsed(object), scratch: cache.scratch)
        let (payload, warnings) = try verifier.decoder.decode(object, as: kind)
        return (compactor.keep(payload), payload, warnings)
    }

    /// Sets a notification event's subscription: its accepted nested transaction's `originalTransactionId`,
    /// else its accepted nested renewal info's; and its transaction: the accepted nested transaction's `transactionId`.
    static func attribute(_ notification: inout RecordOutcome, to nested: ArraySlice<RecordOutcome>) {
        guard case .accepted(var record) = notification, case .notification(var event) = record.kept else { return }
        var subscription: CompactIdentifier?
        for outcome in nested {
            guard case .accepted(let accepted) = outcome else { continue }
            switch accepted.kept {
            case .transaction(let transaction):
                subscription = CompactIdentifier(transaction.originalTransactionId)
                event.transaction = transaction.transactionIdentifier
            case .renewalInfo(let renewal): subscription = subscription ?? renewal.originalId
            case .notification, .ignored: break
            }
        }
        event.subscription = subscription
        record.kept = .notification(event)
        notification = .accepted(record)
    }
}
