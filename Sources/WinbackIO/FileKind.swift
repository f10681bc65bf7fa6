#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a path names, following symbolic links: only regular files are inputs. A FIFO would block the
/// run forever while it holds the output lock, and a dangling link is a file that should be there.
public enum FileKind: Hashable, Sendable {
    case regular
    case directory
    /// A FIFO, socket, character or block device: named in the error.
    case other(String)
    /// A symbolic link that leads nowhere (dangling) or to itself (a loop), with the system's reason.
    case unresolvable(String)
    /// Nothing at the path.
    case missing

    /// The kind of `path` (symbolic links followed).
    public static func of(_ path: String) -> FileKind {
        var status = stat()
        if stat(path, &status) == 0 {
            switch status.st_mode & S_IFMT {
            case S_IFREG: return .regular
            case S_IFDIR: return .directory
            case S_IFIFO: return .other("a FIFO")
            case S_IFSOCK: return .other("a socket")
            case S_IFCHR: return .other("a character device")
            case S_IFBLK: return .other("a block device")
            default: return .other("not a regular file")
            }
        }
        let reason = String(cString: strerror(errno))
        var link = stat()
        if lstat(path, &link) == 0 { return .unresolvable(reason) }
        return .missing
    }
}
