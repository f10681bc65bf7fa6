import WinbackCore
import WinbackCrypto

/// Turns a found record into its outcome: verification for JWS, the trust setting for decoded payloads,
/// and, for an accepted notification, its nested `signedTransactionInfo` / `signedRenewalInfo` as
/// records of their own (path `data.signedTransactionInfo`, relative to the notification payload).
public struct RecordProcessor: Sendable {
    public var verifier: SignedPayloadVerifier
    public var acceptUnsignedPayloads: Bool

    public init(verifier: SignedPayloadVerifier, acceptUnsignedPayloads: Bool) {
        self.verifier = verifier
        self.acceptUnsignedPayloads = acceptUnsignedPayloads
    }

    /// The outcomes of `raw` in input order (a notification before its nested records).
    public func process(_ raw: RawRecord) async -> [RecordOutcome] {
        var outcomes: [RecordOutcome] = []
        await process(raw, into: &outcomes)
        return outcomes
    }

    private func process(_ raw: RawRecord, into outcomes: inout [RecordOutcome]) async {
        switch raw.content {
        case .failure(let failure):
            outcomes.append(.rejected(Rejection(location: raw.location, failure: failure, record: raw.text.string)))
        case .decoded(let value, let kind):
            guard acceptUnsignedPayloads else {
                let failure = RecordFailure(
                    .unsignedPayload, "decoded \(kind.rawValue) payload: expected a signed JWS (trust.acceptUnsignedPayloads is false)")
                outcomes.append(.rejected(Rejection(location: raw.location, failure: failure, record: raw.text.string)))
                return
            }
            do {
                let (payload, warnings) = try verifier.decoder.decode(value, as: kind)
                outcomes.append(.accepted(AcceptedRecord(location: raw.location, payload: payload, warnings: warnings)))
            } catch {
                outcomes.append(.rejected(Rejection(location: raw.location, failure: error, record: raw.text.string)))
            }
        case .signed(let jws, let kind):
            let payload: AcceptedPayload
            let warnings: [String]
            do {
                (payload, warnings) = try await verifier.verify(jws, as: kind)
            } catch {
                outcomes.append(.rejected(Rejection(location: raw.location, failure: error, record: raw.text.string)))
                return
            }
            outcomes.append(.accepted(AcceptedRecord(location: raw.location, payload: payload, warnings: warnings)))
            guard case .notification(let notification) = payload, let data = notification.data else { return }
            for (key, nested, nestedKind) in [
                ("signedTransactionInfo", data.signedTransactionInfo, PayloadKind.transaction),
                ("signedRenewalInfo", data.signedRenewalInfo, .renewalInfo),
            ] {
                guard let nested else { continue }
                var location = raw.location
                location.path = "data.\(key)"
                await process(RawRecord(location: location, content: .signed(nested, nestedKind), text: RecordText(nested)), into: &outcomes)
            }
        }
    }
}
