import Foundation
import Synchronization
import WinbackAppStore
import WinbackCrypto
import WinbackIO
import WinbackJobs

#if canImport(Glibc)
    import Glibc
#endif

/// Where `winback serve` keeps the notifications Apple pushes (docs/notifications-pushed.md):
/// `<directory>/<UTC date of receipt>.<instance>.ndjson`, one `{"signedPayload": "<JWS>"}` line each, appended
/// with one `write` (`O_APPEND`) and made durable (`fdatasync`; the directory too when the file is new) before
/// ``append(_:notificationUUID:day:)`` returns.
///
/// Group commit: requests that arrive while a batch is being written wait for the next batch, which one of
/// them writes for all with a single `fdatasync`; nobody is acknowledged before the sync that covers their line.
/// A `notificationUUID` already on disk (today's or yesterday's file of this instance) is not written again.
/// A failed write is cut back off the file, so the next line never follows a torn one.
public final class NotificationInbox: Sendable {
    /// What happened to one notification.
    public enum Outcome: Sendable, Equatable {
        /// Its line is on disk, durable.
        case appended
        /// Its `notificationUUID` was already on disk: nothing written.
        case duplicate
        /// It could not be made durable (`path`, `reason`): nothing acknowledged.
        case failed(path: String, reason: String)
    }

    private struct Waiting {
        var line: [UInt8]
        var notificationUUID: String
        var day: String
        var continuation: CheckedContinuation<Outcome, Never>
    }

    private struct State {
        var waiting: [Waiting] = []
        var isWriting = false
        /// The `notificationUUID`s on disk, by the day of the file that holds them (today's and yesterday's).
        var seen: [String: String] = [:]
        /// The file being appended to.
        var open: (day: String, descriptor: Int32)?
        /// Lines made durable since the start.
        var appended = 0
    }

    /// The `received/` directory.
    public let directory: String
    /// This server's name in its files (`--instance`).
    public let instance: String
    private let state = Mutex(State())

    /// An inbox in `directory` for `instance`; creates the directory, cuts each of this instance's files after
    /// its last newline (what a crash mid-write leaves), and reads the `notificationUUID`s of `today`'s and the
    /// day before's files. Throws an ``IOError`` naming the path when the directory cannot be made or read.
    public init(directory: String, instance: String, today: String) throws(IOError) {
        self.directory = directory
        self.instance = instance
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw IOError(path: directory, reason: "cannot create directory (\(error.localizedDescription))")
        }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw IOError(path: directory, reason: "cannot list (\(error.localizedDescription))")
        }
        let suffix = ".\(instance).ndjson"
        let recent = [today, Self.dayBefore(today)]
        var seen: [String: String] = [:]
        for name in names where name.hasSuffix(suffix) {
            let path = directory + "/" + name
            try Self.repair(path)
            let day = String(name.prefix(10))
            guard recent.contains(day), let bytes = FileManager.default.contents(atPath: path) else { continue }
            for line in bytes.split(separator: UInt8(ascii: "\n")) {
                if let uuid = Self.notificationUUID(ofLine: Array(line)) { seen[uuid] = day }
            }
        }
        state.withLock { $0.seen = seen }
    }

    deinit {
        state.withLock { state in
            if let open = state.open { close(open.descriptor) }
        }
    }

    /// The path of `day`'s file.
    public func path(day: String) -> String {
        directory + "/" + day + "." + instance + ".ndjson"
    }

    /// Lines made durable since the start.
    public var appended: Int { state.withLock { $0.appended } }

    /// Appends `line` (a whole line, its newline included) for `notificationUUID` to `day`'s file and returns
    /// once it is durable — or says it was there already, or why it could not be written.
    public func append(_ line: [UInt8], notificationUUID: String, day: String) async -> Outcome {
        await withCheckedContinuation { continuation in
            let leads = state.withLock { state in
                state.waiting.append(Waiting(line: line, notificationUUID: notificationUUID, day: day, continuation: continuation))
                guard !state.isWriting else { return false }
                state.isWriting = true
                return true
            }
            // The first to find no batch being written writes every batch until none waits (on its own thread).
            if leads { writeBatches() }
        }
    }

    /// Writes what waits, batch after batch, until nothing does.
    private func writeBatches() {
        while true {
            let batch: [Waiting] = state.withLock { state in
                let batch = state.waiting
                state.waiting = []
                if batch.isEmpty { state.isWriting = false }
                return batch
            }
            guard !batch.isEmpty else { return }
            for (waiting, outcome) in zip(batch, write(batch)) { waiting.continuation.resume(returning: outcome) }
        }
    }

    /// Writes `batch` (one `write` a line) and syncs once per file; the outcome of each.
    private func write(_ batch: [Waiting]) -> [Outcome] {
        var outcomes = [Outcome](repeating: .duplicate, count: batch.count)
        var seenNow = state.withLock { $0.seen }
        var written: [Int] = []
        var failure: Outcome?
        var descriptorToSync: Int32?
        var syncDay: String?
        var startOffset: off_t = 0
        for (index, waiting) in batch.enumerated() {
            if seenNow[waiting.notificationUUID] != nil { continue }
            if let failure {
                outcomes[index] = failure
                continue
            }
            do {
                // Past midnight the previous day's lines are synced before its file is closed.
                if let previous = descriptorToSync, let syncDay, syncDay != waiting.day {
                    try sync(previous, day: syncDay)
                    descriptorToSync = nil
                }
                let descriptor = try descriptor(day: waiting.day)
                if descriptorToSync == nil {
                    (descriptorToSync, syncDay) = (descriptor, waiting.day)
                    startOffset = lseek(descriptor, 0, SEEK_END)
                }
                try Self.writeAll(waiting.line, to: descriptor, path: path(day: waiting.day))
                seenNow[waiting.notificationUUID] = waiting.day
                written.append(index)
            } catch {
                let failed = Outcome.failed(path: error.path, reason: error.reason)
                failure = failed
                outcomes[index] = failed
                // Nothing of this batch is acknowledged: its lines are cut back off the file.
                if let descriptor = descriptorToSync { _ = ftruncate(descriptor, startOffset) }
                for earlier in written { outcomes[earlier] = failed }
                written = []
            }
        }
        if failure == nil, let descriptor = descriptorToSync, let day = syncDay {
            do {
                try sync(descriptor, day: day)
            } catch {
                _ = ftruncate(descriptor, startOffset)
                let failed = Outcome.failed(path: error.path, reason: error.reason)
                for index in written { outcomes[index] = failed }
                written = []
            }
        }
        for index in written { outcomes[index] = .appended }
        let durable = written
        let seen = state.withLock { state in
            for index in durable { state.seen[batch[index].notificationUUID] = batch[index].day }
            state.appended += durable.count
            return state.seen
        }
        // A copy repeated within the batch is a duplicate only if the copy written is durable.
        for (index, waiting) in batch.enumerated() where outcomes[index] == .duplicate && seen[waiting.notificationUUID] == nil {
            outcomes[index] = failure ?? .failed(path: path(day: waiting.day), reason: "not written")
        }
        return outcomes
    }

    /// The open descriptor of `day`'s file (opened, and created durably, as needed; a new day's file closes the
    /// previous one and forgets the notifications of two days before).
    private func descriptor(day: String) throws(IOError) -> Int32 {
        if let open = state.withLock({ $0.open }), open.day == day { return open.descriptor }
        let path = path(day: day)
        let isNew = !FileManager.default.fileExists(atPath: path)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o640)
        guard descriptor >= 0 else { throw IOError(path: path, reason: "cannot open (\(String(cString: strerror(errno))))") }
        if isNew {
            // The file's directory entry must be durable too, or a crash could lose the whole file.
            let directoryDescriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            defer { if directoryDescriptor >= 0 { close(directoryDescriptor) } }
            guard directoryDescriptor >= 0, fsync(directoryDescriptor) == 0 else {
                let reason = String(cString: strerror(errno))
                close(descriptor)
                throw IOError(path: directory, reason: "cannot sync the directory (\(reason))")
            }
        }
        let previous = state.withLock { state -> Int32? in
            let previous = state.open?.descriptor
            state.open = (day, descriptor)
            let keep = Set([day, Self.dayBefore(day)])
            state.seen = state.seen.filter { keep.contains($0.value) }
            return previous
        }
        if let previous { close(previous) }
        return descriptor
    }

    private func sync(_ descriptor: Int32, day: String) throws(IOError) {
        guard fdatasync(descriptor) == 0 else {
            throw IOError(path: path(day: day), reason: "cannot sync (\(String(cString: strerror(errno))))")
        }
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32, path: String) throws(IOError) {
        let count = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        guard count == bytes.count else {
            let reason = count < 0 ? String(cString: strerror(errno)) : "wrote \(count) of \(bytes.count) bytes"
            throw IOError(path: path, reason: "cannot append (\(reason))")
        }
    }

    /// The day before `day` (`YYYY-MM-DD`).
    static func dayBefore(_ day: String) -> String {
        let parts = day.split(separator: "-").compactMap { Int64($0) }
        guard parts.count == 3 else { return day }
        return InstantFormat.date(days: InstantFormat.days(year: parts[0], month: parts[1], day: parts[2]) - 1)
    }

    /// Cuts `path` after its last newline: a line a crash left unterminated was never acknowledged.
    static func repair(_ path: String) throws(IOError) {
        guard let bytes = FileManager.default.contents(atPath: path), let last = bytes.last, last != UInt8(ascii: "\n") else { return }
        let keep = (bytes.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 }) ?? 0
        guard truncate(path, off_t(keep)) == 0 else {
            throw IOError(path: path, reason: "cannot cut the unterminated last line (\(String(cString: strerror(errno))))")
        }
    }

    /// The `notificationUUID` in the payload of a line's `signedPayload` (unverified: the server's own file).
    static func notificationUUID(ofLine line: [UInt8]) -> String? {
        guard case .string(let jws)? = (try? JSONParser.parse(line))?["signedPayload"] else { return nil }
        let segments = jws.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3, let payload = Base64.decodeURL(String(segments[1])),
            case .string(let uuid)? = (try? JSONParser.parse(payload))?["notificationUUID"]
        else { return nil }
        return uuid
    }
}
