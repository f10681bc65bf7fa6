/// Checks shared by the App Store Server API's response bodies.
public enum APIResponseBody {
    /// `body` parsed, when it is a JSON object.
    public static func object(_ body: [UInt8]) throws(MalformedAPIResponse) -> JSONValue {
        let root: JSONValue
        do {
            root = try JSONParser.parse(body)
        } catch {
            throw MalformedAPIResponse(description: "the body is not JSON: \(error)")
        }
        guard root.objectMembers != nil else { throw MalformedAPIResponse(description: "expected a JSON object, found \(root.typeName)") }
        return root
    }

    /// Checks a Get All Subscription Statuses body (`StatusResponse`): an object whose `data` is an array of
    /// groups, each with a `lastTransactions` array — the shape `winback run` reads (docs/inputs.md). Returns the
    /// number of `lastTransactions` items.
    public static func checkStatuses(_ body: [UInt8]) throws(MalformedAPIResponse) -> Int {
        let root = try object(body)
        guard case .array(let groups)? = root["data"] else {
            throw MalformedAPIResponse(description: "data: expected an array of subscription groups")
        }
        var count = 0
        for (index, group) in groups.enumerated() {
            guard case .array(let items)? = group.value["lastTransactions"] else {
                throw MalformedAPIResponse(description: "data[\(index)].lastTransactions: expected an array")
            }
            count += items.count
        }
        return count
    }
}
