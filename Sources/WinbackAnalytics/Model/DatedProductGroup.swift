/// A product's subscription group as of its latest purchase (``SubscriptionModel/datedProductGroups``).
public struct DatedProductGroup: Sendable, Equatable {
    /// The purchase the group was read from, epoch ms.
    public var purchaseDate: Int64
    /// `subscriptionGroupIdentifier`.
    public var group: String

    /// A group read from a purchase at `purchaseDate`.
    public init(purchaseDate: Int64, group: String) {
        self.purchaseDate = purchaseDate
        self.group = group
    }

    /// Keeps the later of the two (the larger group id, by code point, at the same instant): the order in which
    /// purchases or shards are combined does not matter.
    public mutating func combine(_ other: DatedProductGroup) {
        if other.purchaseDate > purchaseDate || (other.purchaseDate == purchaseDate && CodePointOrder.less(group, other.group)) {
            self = other
        }
    }
}
