/// One segment of past renewals (docs/renewal-outlook.md): the features kept at its level of the hierarchy, as a
/// small value (the tally is keyed by it: no text is built per renewal). Its ``text`` is how it is written out.
public struct RenewalSegment: Sendable, Hashable {
    /// The segments the estimate is built from, broadest first: 0 everything; 1 the auto-renew and billing state (a
    /// grace period and a billing retry are one state: the renewal is the payment's recovery); 2 + the period's offer,
    /// 3 + the tenure bucket, 4 + a pending price increase, 5 + the product; 6 the product alone (the baseline). The
    /// price increase comes before the product, so a product facing its first one borrows the effect others showed.
    public var level: UInt8
    var autoRenew = false
    var billing = false
    var kind: UInt8 = 0
    var tenure: UInt8 = 0
    var priceIncrease = false
    var productId = ""

    /// The segment of `features` at `level` (6 is the product's own).
    static func of(_ features: RenewalFeatures, level: UInt8) -> RenewalSegment {
        var finest = RenewalSegment(level: 5)
        finest.autoRenew = features.autoRenew
        finest.billing = features.billing != .none
        finest.kind = features.kind.index
        finest.tenure = UInt8(features.tenureBucket)
        finest.priceIncrease = features.priceIncreasePending
        finest.productId = features.productId
        return level == 5 ? finest : finest.truncated(to: level)
    }

    /// This (finest) segment's broader one at `level` (6: its product's own).
    func truncated(to level: UInt8) -> RenewalSegment {
        if level == 6 { return Self.product(productId) }
        var segment = RenewalSegment(level: level)
        if level >= 1 {
            segment.autoRenew = autoRenew
            segment.billing = billing
        }
        if level >= 2 { segment.kind = kind }
        if level >= 3 { segment.tenure = tenure }
        if level >= 4 { segment.priceIncrease = priceIncrease }
        if level >= 5 { segment.productId = productId }
        return segment
    }

    /// The product-alone segment of `productId`.
    static func product(_ productId: String) -> RenewalSegment {
        var segment = RenewalSegment(level: 6)
        segment.productId = productId
        return segment
    }

    /// The segment as written in a partial: `*`, `on|none`, `on|none|standard`, `on|none|standard|3`,
    /// `on|none|standard|3|-`, `on|none|standard|3|-|<product>`, `product|<product>`.
    public var text: String {
        if level == 0 { return "*" }
        if level == 6 { return "product|" + productId }
        var parts = [(autoRenew ? "on" : "off") + "|" + (billing ? "billing" : "none")]
        if level >= 2 { parts.append(RenewalFeatures.PeriodKind.allCases[Int(kind)].rawValue) }
        if level >= 3 { parts.append(String(tenure)) }
        if level >= 4 { parts.append(priceIncrease ? "pi" : "-") }
        if level >= 5 { parts.append(productId) }
        return parts.joined(separator: "|")
    }

    /// The segment ``text`` names, or `nil`.
    public init?(text: String) {
        if text == "*" {
            self.init(level: 0)
            return
        }
        if text.hasPrefix("product|") {
            self = Self.product(String(text.dropFirst("product|".count)))
            return
        }
        let parts = text.split(separator: "|", maxSplits: 5, omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 2, ["on", "off"].contains(parts[0]), ["none", "billing"].contains(parts[1]) else { return nil }
        self.init(level: UInt8(parts.count - 1))
        autoRenew = parts[0] == "on"
        billing = parts[1] == "billing"
        if parts.count > 2 {
            guard let index = RenewalFeatures.PeriodKind.allCases.firstIndex(where: { $0.rawValue == parts[2] }) else { return nil }
            kind = UInt8(index)
        }
        if parts.count > 3 {
            guard let bucket = UInt8(parts[3]) else { return nil }
            tenure = bucket
        }
        if parts.count > 4 {
            guard ["pi", "-"].contains(parts[4]) else { return nil }
            priceIncrease = parts[4] == "pi"
        }
        if parts.count > 5 { productId = parts[5] }
    }

    init(level: UInt8) { self.level = level }
}
