/// A minimal SVG writer: shapes and text appended in drawing order, coordinates with one decimal.
struct SVGCanvas {
    let width: Double
    let height: Double
    private var elements: [String] = []

    init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    static func coordinate(_ value: Double) -> String { ChartNumber.fixed(value, 1) }

    /// A filled rectangle with an optional tooltip (`<title>`).
    mutating func rect(x: Double, y: Double, width: Double, height: Double, fill: String, stroke: String? = nil, tooltip: String? = nil) {
        let c = Self.coordinate
        var element = "<rect x=\"\(c(x))\" y=\"\(c(y))\" width=\"\(c(max(0, width)))\" height=\"\(c(max(0, height)))\" fill=\"\(fill)\""
        if let stroke { element += " stroke=\"\(stroke)\" stroke-width=\"1.5\"" }
        if let tooltip {
            element += "><title>\(HTMLText.escape(tooltip))</title></rect>"
        } else {
            element += "/>"
        }
        elements.append(element)
    }

    /// A straight line; `isDashed` for reference lines.
    mutating func line(x1: Double, y1: Double, x2: Double, y2: Double, stroke: String = "#888", isDashed: Bool = false) {
        let c = Self.coordinate
        elements.append(
            "<line x1=\"\(c(x1))\" y1=\"\(c(y1))\" x2=\"\(c(x2))\" y2=\"\(c(y2))\" stroke=\"\(stroke)\"\(isDashed ? " stroke-dasharray=\"4 3\"" : "")/>"
        )
    }

    /// Text anchored at (x, y): `anchor` is `start`, `middle` or `end`; `rotation` in degrees around the anchor.
    mutating func text(
        _ content: String, x: Double, y: Double, anchor: String = "start", size: Int = 11, isBold: Bool = false, fill: String = "#222",
        rotation: Double? = nil
    ) {
        let c = Self.coordinate
        var element = "<text x=\"\(c(x))\" y=\"\(c(y))\" font-size=\"\(size)\" text-anchor=\"\(anchor)\" fill=\"\(fill)\""
        if isBold { element += " font-weight=\"bold\"" }
        if let rotation { element += " transform=\"rotate(\(c(rotation)) \(c(x)) \(c(y)))\"" }
        elements.append(element + ">\(HTMLText.escape(content))</text>")
    }

    /// The `<svg>` element, labelled for screen readers with `label`.
    func rendered(label: String) -> String {
        let c = Self.coordinate
        return
            "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" aria-label=\"\(HTMLText.escape(label))\" viewBox=\"0 0 \(c(width)) \(c(height))\" width=\"\(c(width))\" height=\"\(c(height))\">"
            + "<title>\(HTMLText.escape(label))</title>" + elements.joined() + "</svg>"
    }
}
