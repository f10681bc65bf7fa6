import WinbackAnalytics

/// How the page names a subscription group: by its products (`monthly, annual`), not by Apple's numeric
/// `subscriptionGroupIdentifier`, which nobody reading the page recognises. The dotted prefix every product of the
/// page shares (`com.example.app.`) is left out; a group of more than three products shows three and a count.
struct ProductGroupNames {
    private let products: [String: [String]]
    private let sharedPrefix: String

    /// Names for `groups` (group id → its product ids).
    init(_ groups: [String: Set<String>]) {
        products = groups.mapValues { $0.sorted(by: CodePointOrder.less) }
        sharedPrefix = Self.sharedDottedPrefix(groups.values.flatMap { $0 })
    }

    /// The group's products, short; the group id when it has none.
    func name(of group: String) -> String {
        guard let list = products[group], !list.isEmpty else { return group }
        let short = list.map { $0.hasPrefix(sharedPrefix) && $0.count > sharedPrefix.count ? String($0.dropFirst(sharedPrefix.count)) : $0 }
        return short.count > 3 ? short.prefix(3).joined(separator: ", ") + " +\(short.count - 3)" : short.joined(separator: ", ")
    }

    /// The longest prefix of every id that ends with a dot (`""` when there is none or only one id).
    static func sharedDottedPrefix(_ ids: [String]) -> String {
        guard var prefix = ids.first, ids.count > 1 else { return "" }
        for id in ids.dropFirst() {
            while !id.hasPrefix(prefix) { prefix.removeLast() }
        }
        guard let dot = prefix.lastIndex(of: ".") else { return "" }
        return String(prefix[...dot])
    }
}
