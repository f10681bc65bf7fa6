/// Work run on all cores and handed on strictly in the order it was submitted: at most ``width`` items are
/// in flight, and a finished item waits until every item before it has been handed on. Memory stays at
/// `width` items whatever the input's size, and the output is deterministic whatever the scheduling.
///
/// The task group is the caller's (a window lives inside `withThrowingTaskGroup`); the window keeps the
/// sequence numbers and the finished items not yet handed on.
struct OrderedWindow<Output: Sendable> {
    /// Most items in flight or waiting to be handed on.
    let width: Int
    /// Items submitted so far; the next item's sequence number.
    private(set) var submitted = 0
    /// The sequence number of the next item to hand on.
    private(set) var nextToEmit = 0
    private var finished: [Int: Output] = [:]

    /// An empty window of `width` items (at least 1).
    init(width: Int) {
        self.width = max(1, width)
    }

    /// Adds `work` to `group`; while the window is full, first hands on (`emit`, with its sequence number)
    /// what finished in order.
    mutating func submit(
        _ work: @escaping @Sendable () async -> Output, to group: inout ThrowingTaskGroup<(Int, Output), any Error>,
        emit: (Int, Output) throws -> Void
    ) async throws {
        while submitted - nextToEmit >= width, let result = try await group.next() { try receive(result, emit: emit) }
        let sequence = submitted
        submitted += 1
        group.addTask { (sequence, await work()) }
    }

    /// Waits for every item submitted so far and hands each on in order.
    mutating func drain(_ group: inout ThrowingTaskGroup<(Int, Output), any Error>, emit: (Int, Output) throws -> Void) async throws {
        while let result = try await group.next() { try receive(result, emit: emit) }
    }

    private mutating func receive(_ result: (Int, Output), emit: (Int, Output) throws -> Void) throws {
        finished[result.0] = result.1
        while let output = finished.removeValue(forKey: nextToEmit) {
            let sequence = nextToEmit
            nextToEmit += 1
            try emit(sequence, output)
        }
    }
}
