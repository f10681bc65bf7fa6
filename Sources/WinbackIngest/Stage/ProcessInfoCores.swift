import Foundation

/// The number of cores this process may use.
enum ProcessInfoCores {
    static var count: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }
}
