import CGzip

/// The engine compressing a Parquet file's pages (GZIP codec: each page one gzip member). Both give pages
/// every reader inflates to the same bytes; the compressed bytes, and so a file's size and SHA-256, differ.
public enum PageDeflater: String, Sendable, CaseIterable {
    /// ISA-L's igzip at its level 1 (libisal.so.2, loaded at run time when the build saw ISA-L's header):
    /// several times faster than zlib, with pages about as small as zlib's level 2 (docs/performance.md).
    case isal
    /// The system zlib at the writer's level: always available.
    case zlib

    /// The engine writers use unless told otherwise: ISA-L when it loads, else zlib.
    /// `WINBACK_DEFLATER=zlib` in the environment chooses zlib.
    public static var preferred: PageDeflater {
        winback_deflater_engine() == WINBACK_DEFLATER_ISAL ? .isal : .zlib
    }

    /// Whether this engine can be used in this process.
    public var isAvailable: Bool { self == .zlib || Self.preferred == .isal }

    /// `bytes` as one gzip member, at zlib's `level` (0–9) for zlib; ISA-L uses its level 1 from level 1 on.
    func gzip(_ bytes: [UInt8], level: Int32) throws -> [UInt8] {
        let kind = self == .isal ? WINBACK_DEFLATER_ISAL : WINBACK_DEFLATER_ZLIB
        var status: Int32 = 0
        // Not zeroed first: the deflater writes what is kept.
        let output = [UInt8](unsafeUninitializedCapacity: winback_gzip_member_bound(bytes.count)) { output, produced in
            status = bytes.withUnsafeBufferPointer { input in
                winback_gzip_member(kind, level, input.baseAddress, input.count, output.baseAddress, output.count, &produced)
            }
            if status != 0 { produced = 0 }
        }
        guard status == 0 else {
            let reason = status == -1 ? "not available" : status == -2 ? "out of memory" : "failed (\(status))"
            throw ParquetWriter.Failure(description: "gzip page (\(rawValue)): \(reason)")
        }
        return output
    }
}
