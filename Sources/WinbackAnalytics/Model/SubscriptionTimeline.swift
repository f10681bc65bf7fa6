import WinbackAppStore

/// One subscription's history as of `T` (README: The model in brief): its transactions in order, coverage, the
/// covering transaction over time, spans, lapses with reasons, status, and paid days.
///
/// Worked example (grace 16 days, `T` = 2026-06-01): a monthly plan bought 2026-01-01 renews on the 1st
/// of February and March, its March renewal fails and billing recovers on 2026-04-10. Coverages are
/// Jan 1–Feb 1, Feb 1–Mar 1, Mar 1–Apr 1 and Apr 10–May 10; the 9-day gap is inside the grace window, so
/// they merge into one span Jan 1–May 10. That span ends before `T`: one lapse at May 10, and with no
/// renewal info its reason is `unknown`; status at `T` is `expired`; paid days = 31+28+31+30 = 120.
public struct SubscriptionTimeline: Sendable {
    /// A run of time during which one transaction is the covering transaction.
    public struct Segment: Sendable, Equatable {
        /// The segment's first instant, epoch ms (inclusive).
        public var start: Int64
        /// The instant after the segment, epoch ms (exclusive).
        public var end: Int64
        /// Index into ``transactions``.
        public var transaction: Int
    }

    /// A lapse: the span ended at `at`, `lastCovering` (`Y`) covered `at − 1 ms`.
    public struct Lapse: Sendable, Equatable {
        /// The lapse instant `L`: the span's end, epoch ms.
        public var at: Int64
        /// Index into ``transactions`` of `Y`, the transaction covering `L − 1 ms`.
        public var lastCovering: Int
        /// Why the span ended (README: The model in brief).
        public var reason: LapseReason
    }

    /// Coverage merged across gaps of at most the grace period.
    public struct Span: Sendable, Equatable {
        /// The span's first instant, epoch ms (inclusive).
        public var start: Int64
        /// The instant after the span, epoch ms (exclusive).
        public var end: Int64
        /// Index of the span's first transaction (earliest coverage start).
        public var first: Int
        /// Set when the span ended before `T`.
        public var lapse: Lapse?
    }

    /// The subscription's `originalTransactionId` (that of its transactions).
    public var originalTransactionId: String { transactions[0].originalTransactionId }
    /// In-scope transactions ordered by purchase date, then expiry, then transaction id (identifier order).
    public let transactions: [SubscriptionTransaction]
    /// The latest renewal info (`R`), if any.
    public let renewal: RenewalState?
    /// `auto_renew_disabled_at` (docs/notifications-and-commitments.md): the `signedDate` of the latest notification that turned auto-renew
    /// off before `T`, when none turned it back on after it before `T` and `R` says auto-renew is off.
    public internal(set) var autoRenewDisabledAt: Int64?
    /// `T`: the start of the day after the as-of date, epoch ms.
    public let asOf: Int64
    /// The revocation date of transaction `index` if before `T` (a later one is treated as absent).
    /// Computed, not stored: an array of them per subscription is memory the nightly run does not have.
    public func revocation(_ index: Int) -> Int64? {
        guard let revocation = transactions[index].revocationDate, revocation < asOf else { return nil }
        return revocation
    }
    /// Coverage `[purchaseDate, end)` per transaction; `nil` when empty (see ``coverage(_:)``).
    public var coverages: [Range<Int64>?] { transactions.indices.map(coverage) }
    /// The coverage of transaction `index`: `[purchaseDate, end)` where `end` is its expiry, cut at its
    /// revocation before `T` and, when it was upgraded, at the next later purchase; `nil` when empty.
    /// Computed, not stored, for the same reason as ``revocation(_:)``.
    public func coverage(_ index: Int) -> Range<Int64>? {
        Self.coverage(index, of: transactions, revocation: revocation(index))
    }

    static func coverage(_ index: Int, of ordered: [SubscriptionTransaction], revocation: Int64?) -> Range<Int64>? {
        let transaction = ordered[index]
        var end = transaction.expiresDate
        if let revocation { end = min(end, revocation) }
        if transaction.isUpgraded, let next = ordered[(index + 1)...].first(where: { $0.purchaseDate > transaction.purchaseDate }) {
            end = min(end, next.purchaseDate)
        }
        return end > transaction.purchaseDate ? transaction.purchaseDate..<end : nil
    }
    /// The segments, ordered by time, where one transaction is the covering one.
    public var segments: [Segment] {
        if let explicitSegments { return explicitSegments }
        return transactions.indices.map(segment)
    }
    /// The number of ``segments``.
    public var segmentCount: Int { explicitSegments?.count ?? transactions.count }
    /// Segment `index` of ``segments``, without building the array (a report reads every subscription's).
    public func segment(_ index: Int) -> Segment {
        if let explicitSegments { return explicitSegments[index] }
        return Segment(
            start: transactions[index].purchaseDate, end: coverage(index)?.upperBound ?? transactions[index].purchaseDate,
            transaction: index)
    }
    /// The segments when they differ from the coverages. `nil` in the common case — every coverage
    /// non-empty and each ending by the time the next one starts — where segment `i` is coverage `i`:
    /// not storing them saves an array per subscription.
    private let explicitSegments: [Segment]?
    /// Coverage merged across gaps of at most the grace period, oldest first.
    public let spans: [Span]
    /// The status at `T` (Apple's Status 1–5).
    public let status: SubscriptionStatus

    /// The latest transaction `X`: greatest purchase date, then expiry, then transaction id.
    public var latest: SubscriptionTransaction { transactions[transactions.count - 1] }
    /// Index of ``latest`` in ``transactions``.
    public var latestIndex: Int { transactions.count - 1 }
    /// The account key (docs/campaigns.md): ``latest``'s `appAccountToken` in lower case, else the `originalTransactionId`.
    public var accountKey: String { latest.appAccountToken.map(ByteSpelling.lowercased) ?? originalTransactionId }

    /// Builds the timeline. `transactions` must be non-empty and purchased before `asOf` (`T`).
    ///
    /// The transactions are taken over and sorted in place: with a sorted copy, every transaction's three
    /// objects were retained into the copy and released with the original.
    public init(transactions unordered: consuming [SubscriptionTransaction], renewal: RenewalState?, asOf: Int64, graceMilliseconds: Int64)
    {
        var ordered = consume unordered
        ordered.sort(by: Self.precedes)
        self.transactions = ordered
        self.renewal = renewal
        self.asOf = asOf
        let revocations = ordered.map { transaction -> Int64? in
            guard let revocation = transaction.revocationDate, revocation < asOf else { return nil }
            return revocation
        }

        let coverages = ordered.indices.map { Self.coverage($0, of: ordered, revocation: revocations[$0]) }
        let segments = Self.segments(coverages)
        self.explicitSegments = Self.areSegments(coverages) ? nil : segments
        let spans = Self.spans(coverages, graceMilliseconds: graceMilliseconds)
        var resolved: [Span] = []
        resolved.reserveCapacity(spans.count)
        for (position, span) in spans.enumerated() {
            var span = span
            if span.end < asOf {
                let covering = Self.covering(at: span.end - 1, in: segments) ?? span.first
                span.lapse = Lapse(
                    at: span.end, lastCovering: covering,
                    reason: Self.reason(
                        at: span.end, lastCovering: revocations[covering], isLastSpan: position == spans.count - 1, renewal: renewal))
            }
            resolved.append(span)
        }
        self.spans = resolved

        if coverages.contains(where: { ($0?.upperBound ?? .min) > asOf }) {
            status = .active
        } else if revocations[ordered.count - 1] != nil {
            status = .revoked
        } else if let renewal, renewal.isInBillingRetry {
            status = (renewal.gracePeriodExpiresDate ?? .min) > asOf ? .billingGracePeriod : .billingRetry
        } else {
            status = .expired
        }
    }

    /// The model's order of transactions: purchase date, then expiry, then transaction id (identifier order).
    public static func precedes(_ lhs: SubscriptionTransaction, _ rhs: SubscriptionTransaction) -> Bool {
        if lhs.purchaseDate != rhs.purchaseDate { return lhs.purchaseDate < rhs.purchaseDate }
        if lhs.expiresDate != rhs.expiresDate { return lhs.expiresDate < rhs.expiresDate }
        return CompactIdentifier.precedes(lhs.transactionIdentifier, rhs.transactionIdentifier)
    }

    static func reason(at lapse: Int64, lastCovering revocation: Int64?, isLastSpan: Bool, renewal: RenewalState?) -> LapseReason {
        if revocation == lapse { return .refund }
        if !isLastSpan { return .returned }
        return LapseReason.fromRenewal(renewal)
    }

    /// Splits time into segments with one covering transaction each: among the coverages containing an
    /// instant, the covering one has the greatest purchase date, then expiry, then id — the highest index.
    static func segments(_ coverages: [Range<Int64>?]) -> [Segment] {
        var points: [Int64] = []
        for coverage in coverages {
            guard let coverage else { continue }
            points.append(coverage.lowerBound)
            points.append(coverage.upperBound)
        }
        points.sort()
        var segments: [Segment] = []
        var previous: Int64? = nil
        for point in points {
            defer { previous = point }
            guard let start = previous, start < point else { continue }
            var best: Int? = nil
            for (index, coverage) in coverages.enumerated() {
                if let coverage, coverage.lowerBound <= start, coverage.upperBound >= point { best = index }
            }
            guard let best else { continue }
            if var last = segments.last, last.transaction == best, last.end == start {
                last.end = point
                segments[segments.count - 1] = last
            } else {
                segments.append(Segment(start: start, end: point, transaction: best))
            }
        }
        return segments
    }

    /// Whether the coverages are their own segments: all non-empty, each ending at or before the next starts.
    static func areSegments(_ coverages: [Range<Int64>?]) -> Bool {
        var previousEnd = Int64.min
        for coverage in coverages {
            guard let coverage, coverage.lowerBound >= previousEnd else { return false }
            previousEnd = coverage.upperBound
        }
        return true
    }

    /// Merges coverages sorted by start into spans: an interval joins the current span when
    /// `start <= spanEnd + grace`, `spanEnd` being the greatest end merged so far.
    static func spans(_ coverages: [Range<Int64>?], graceMilliseconds: Int64) -> [Span] {
        let sorted = coverages.enumerated().compactMap { index, coverage in coverage.map { (index, $0) } }
            .sorted { $0.1.lowerBound != $1.1.lowerBound ? $0.1.lowerBound < $1.1.lowerBound : $0.0 < $1.0 }
        var spans: [Span] = []
        for (index, coverage) in sorted {
            if var current = spans.last, coverage.lowerBound <= current.end + graceMilliseconds {
                current.end = max(current.end, coverage.upperBound)
                spans[spans.count - 1] = current
            } else {
                spans.append(Span(start: coverage.lowerBound, end: coverage.upperBound, first: index, lapse: nil))
            }
        }
        return spans
    }

    /// The covering transaction's index at `instant`, if any.
    public func covering(at instant: Int64) -> Int? {
        if let explicitSegments { return Self.covering(at: instant, in: explicitSegments) }
        // Segment `i` is coverage `i`: the first whose end is after `instant`, if it has started.
        var low = 0
        var high = transactions.count
        while low < high {
            let middle = (low + high) / 2
            if (coverage(middle)?.upperBound ?? .min) <= instant { low = middle + 1 } else { high = middle }
        }
        guard low < transactions.count, transactions[low].purchaseDate <= instant else { return nil }
        return low
    }

    static func covering(at instant: Int64, in segments: [Segment]) -> Int? {
        var low = 0
        var high = segments.count
        while low < high {
            let middle = (low + high) / 2
            if segments[middle].end <= instant { low = middle + 1 } else { high = middle }
        }
        guard low < segments.count, segments[low].start <= instant else { return nil }
        return segments[low].transaction
    }

    /// The product of the covering transaction when it is paid (the subscription is active paid), else `nil`.
    public func activePaidProduct(at instant: Int64) -> String? {
        guard let index = covering(at: instant), transactions[index].isPaid else { return nil }
        return transactions[index].productId
    }

    /// Whether the transaction at `index` was revoked before `T`.
    public func isRevoked(_ index: Int) -> Bool { revocation(index) != nil }

    /// Total length of the union of paid coverages before `T`, floored to whole days.
    public var paidDays: Int64 { paidDays(within: Int64.min..<asOf) }

    /// Paid days before `instant` (and `T`): the paid coverages cut there, as ``paidDays``.
    public func paidDays(before instant: Int64) -> Int64 { paidDays(within: Int64.min..<min(instant, asOf)) }

    /// Paid days restricted to the last span.
    public var consecutivePaidDays: Int64 {
        guard let last = spans.last else { return 0 }
        return paidDays(within: last.start..<min(last.end, asOf))
    }

    private func paidDays(within window: Range<Int64>) -> Int64 {
        guard !window.isEmpty else { return 0 }
        // The transactions are ordered by purchase date, so the paid intervals come ordered by start and are
        // merged as they come: no array of them, no sort (the report and the selector ask every subscription).
        var total: Int64 = 0
        var current: Range<Int64>? = nil
        for index in transactions.indices {
            guard transactions[index].isPaid, let coverage = coverage(index) else { continue }
            let start = max(coverage.lowerBound, window.lowerBound)
            let end = min(coverage.upperBound, window.upperBound)
            guard start < end else { continue }
            if let active = current, start <= active.upperBound {
                current = active.lowerBound..<max(active.upperBound, end)
            } else {
                if let active = current { total += active.upperBound - active.lowerBound }
                current = start..<end
            }
        }
        if let active = current { total += active.upperBound - active.lowerBound }
        return total / InstantFormat.day
    }

    /// Paid transactions not revoked before `T`.
    public var paidPeriods: Int {
        var count = 0
        for index in transactions.indices where transactions[index].isPaid && revocation(index) == nil { count += 1 }
        return count
    }

    /// The end of the last span when the status is not `active` (`lapsed_at`), with that lapse's reason.
    public var finalLapse: (at: Int64, reason: LapseReason)? {
        guard status != .active, let last = spans.last else { return nil }
        if let lapse = last.lapse { return (lapse.at, lapse.reason) }
        let covering = covering(at: last.end - 1) ?? last.first
        return (last.end, Self.reason(at: last.end, lastCovering: revocation(covering), isLastSpan: true, renewal: renewal))
    }

    /// The latest transaction carrying an `offerType`.
    public var lastOfferTransaction: SubscriptionTransaction? { transactions.last { $0.offerType != nil } }

    /// Whether the subscription is shared through Family Sharing (by its latest transaction).
    public var isFamilyShared: Bool { transactions[transactions.count - 1].isFamilyShared }
}
