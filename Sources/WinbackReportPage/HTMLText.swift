/// Escaping for text and attribute values written into `report.html`.
enum HTMLText {
    /// `s` with `&`, `<`, `>`, `"` and `'` replaced by entities, safe in element text and quoted attributes.
    static func escape(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for character in s.unicodeScalars {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }

    /// At most `limit` characters of `s`, ending in `…` when shortened (for chart labels).
    static func truncate(_ s: String, to limit: Int) -> String {
        s.count <= limit ? s : String(s.prefix(limit - 1)) + "…"
    }
}
