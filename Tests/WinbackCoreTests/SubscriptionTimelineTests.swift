import Testing
import WinbackAnalytics
import WinbackAppStore

/// The covering transaction over time (README: The model in brief) — `segments` and `covering(at:)` — checked against its
/// definition by brute force: at an instant, among the transactions whose coverage contains it, the one
/// with the highest index (greatest purchase date, then expiry, then id). Timelines whose coverages are
/// their own segments do not store them; these cases cover both forms.
@Suite struct SubscriptionTimelineTests {
    static let day = InstantFormat.day
    static let asOf = 300 * day

    /// A small deterministic generator (SplitMix64), so every run checks the same timelines.
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
    }

    static func transaction(_ index: Int, purchase: Int64, expires: Int64, revocation: Int64? = nil, upgraded: Bool = false)
        -> SubscriptionTransaction
    {
        SubscriptionTransaction(
            transactionId: "t\(index)", originalTransactionId: "o", productId: "m", purchaseDate: purchase, expiresDate: expires,
            revocationDate: revocation, isUpgraded: upgraded)
    }

    /// The highest-indexed transaction whose coverage contains `instant`.
    static func bruteCovering(_ timeline: SubscriptionTimeline, at instant: Int64) -> Int? {
        timeline.transactions.indices.last { timeline.coverage($0)?.contains(instant) ?? false }
    }

    static func check(_ timeline: SubscriptionTimeline, _ label: String) {
        var instants: Set<Int64> = []
        for index in timeline.transactions.indices {
            let transaction = timeline.transactions[index]
            for edge in [transaction.purchaseDate, transaction.expiresDate, transaction.revocationDate ?? transaction.purchaseDate] {
                instants.formUnion([edge - 1, edge, edge + 1, edge + day / 2])
            }
        }
        for instant in instants.sorted() {
            #expect(timeline.covering(at: instant) == bruteCovering(timeline, at: instant), "\(label) at \(instant)")
            let inSegment = timeline.segments.first { $0.start <= instant && instant < $0.end }
            #expect(inSegment?.transaction == bruteCovering(timeline, at: instant), "\(label) segment at \(instant)")
        }
        let segments = timeline.segments
        #expect(segments.allSatisfy { $0.start < $0.end }, "\(label): empty segment")
        #expect(zip(segments, segments.dropFirst()).allSatisfy { $0.end <= $1.start }, "\(label): segments out of order")
    }

    @Test func handPickedTimelinesHaveTheirCoveringTransaction() {
        let month = 30 * Self.day
        let cases: [(String, [SubscriptionTransaction])] = [
            ("monthly chain", (0..<3).map { Self.transaction($0, purchase: Int64($0) * month, expires: Int64($0 + 1) * month) }),
            (
                "chain with a gap",
                [Self.transaction(0, purchase: 0, expires: month), Self.transaction(1, purchase: month + 9 * Self.day, expires: 2 * month)]
            ),
            (
                "overlap: the later purchase covers",
                [Self.transaction(0, purchase: 0, expires: 2 * month), Self.transaction(1, purchase: month, expires: 3 * month)]
            ),
            (
                "upgrade cuts the earlier coverage",
                [
                    Self.transaction(0, purchase: 0, expires: 2 * month, upgraded: true),
                    Self.transaction(1, purchase: month, expires: 3 * month),
                ]
            ),
            (
                "refunded mid-period",
                [
                    Self.transaction(0, purchase: 0, expires: month, revocation: 10 * Self.day),
                    Self.transaction(1, purchase: month, expires: 2 * month),
                ]
            ),
            (
                "empty coverage (revoked at purchase)",
                [Self.transaction(0, purchase: 0, expires: month, revocation: 0), Self.transaction(1, purchase: month, expires: 2 * month)]
            ),
            (
                "nested: a short transaction inside a long one",
                [Self.transaction(0, purchase: 0, expires: 3 * month), Self.transaction(1, purchase: month, expires: month + Self.day)]
            ),
            (
                "same purchase instant, later expiry wins",
                [Self.transaction(0, purchase: 0, expires: month), Self.transaction(1, purchase: 0, expires: 2 * month)]
            ),
        ]
        for (label, transactions) in cases {
            Self.check(
                SubscriptionTimeline(transactions: transactions, renewal: nil, asOf: Self.asOf, graceMilliseconds: 16 * Self.day), label)
        }
    }

    @Test func randomTimelinesHaveTheirCoveringTransaction() {
        var generator = Generator(state: 20_261_124)
        for round in 0..<2_000 {
            let count = 1 + generator.next(6)
            let chained = generator.next(2) == 0
            var transactions: [SubscriptionTransaction] = []
            var cursor: Int64 = 0
            for index in 0..<count {
                let purchase = chained ? cursor + Int64(generator.next(3)) * Self.day : Int64(generator.next(400)) * Self.day / 4
                let expires = purchase + Int64(generator.next(41)) * Self.day
                cursor = expires
                let revocation = generator.next(8) == 0 ? purchase + Int64(generator.next(41)) * Self.day : nil
                transactions.append(
                    Self.transaction(index, purchase: purchase, expires: expires, revocation: revocation, upgraded: generator.next(6) == 0))
            }
            let timeline = SubscriptionTimeline(transactions: transactions, renewal: nil, asOf: Self.asOf, graceMilliseconds: 16 * Self.day)
            Self.check(timeline, "round \(round)")
        }
    }
}
