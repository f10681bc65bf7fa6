import Crypto
import Foundation
import WinbackAnalytics
import WinbackAppStore
import WinbackCore
import WinbackIO
import WinbackParquet

/// `report.formats` (docs/analysts.md): every CSV table has a Parquet twin written from the same typed rows
/// (``TableWriter``, ``ParquetTableFile``), typed by the manifest's column types, so the Parquet file equals its
/// CSV row for row; with
/// `parquet` only, the CSV is removed before publishing. `views.sql` holds a DuckDB view over every night's
/// Parquet files.
enum ParquetTables {
    /// The outputs as published: with `parquet` only, the CSV tables (whose twins are among `outputs`) removed
    /// from `directory` and the list; with Parquet on, `views.sql` naming `outputDirectory` added.
    static func publishedOutputs(
        _ outputs: [OutputStats], directory: String, outputDirectory: String, formats: Set<ReportSettings.TableFormat>
    ) throws -> [OutputStats] {
        guard formats.contains(.parquet) else { return outputs }
        var published: [OutputStats] = []
        var tables: [String] = []
        for output in outputs {
            guard output.name.hasSuffix(".csv.gz") else {
                published.append(output)
                continue
            }
            let table = String(output.name.dropLast(".csv.gz".count))
            guard outputs.contains(where: { $0.name == table + ".parquet" }) else {
                throw JobError.internalError("\(output.name) was written without its Parquet twin")
            }
            tables.append(table)
            if formats.contains(.csv) {
                published.append(output)
            } else {
                try? FileManager.default.removeItem(atPath: directory + "/" + output.name)
            }
        }
        published.append(try writeViews(tables, directory: directory, outputDirectory: outputDirectory))
        return published
    }

    /// The Parquet type of a manifest column type.
    static func parquetType(_ type: ColumnType) -> ParquetColumnType {
        switch type {
        case .string, .currency, .month, .stringArray: .string
        case .integer: .int64
        case .rate: .decimal(scale: 6)
        case .money: .decimal(scale: 3)
        case .date: .date
        case .instant: .timestampMillis
        case .boolean: .boolean
        }
    }

    /// `views.sql`: one DuckDB view per table over every night's Parquet file of it.
    private static func writeViews(_ tables: [String], directory: String, outputDirectory: String) throws -> OutputStats {
        let escaped = outputDirectory.replacingOccurrences(of: "'", with: "''")
        var text = "-- DuckDB views over every night's Parquet tables (duckdb -init views.sql, or .read views.sql).\n"
        for table in tables {
            text +=
                "CREATE OR REPLACE VIEW \(table) AS SELECT * FROM read_parquet('\(escaped)/dt=*/\(table).parquet', hive_partitioning = true);\n"
        }
        let bytes = Array(text.utf8)
        let path = directory + "/views.sql"
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            throw JobError.io(IOError(path: path, reason: "cannot write"))
        }
        return OutputStats(
            name: "views.sql", rows: tables.count, bytes: bytes.count, sha256: HexDigest.string(SHA256.hash(data: bytes)),
            schema: ReportSchema(name: "views.sql", columns: []))
    }
}
