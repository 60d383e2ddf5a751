import Foundation
import TestSupport
import Testing

/// What the report tests read from the DOM Chromium built: the entries (cards) with their bars
/// and errors, the timeline's spans, and everything that would show an injection (scripts,
/// event-handler attributes, images that are not embedded thumbnails, the title).
///
/// The serialized DOM is read by Python's `html.parser` (python3 is installed wherever the
/// tests run); the script is below.
struct ReportDOM: Decodable {
    struct Entry: Decodable {
        /// `data-image` (classify, label) or nil.
        let image: String?
        /// `data-category` (a classify-video span's card) or nil.
        let category: String?
        let classes: [String]
        /// The text shown as the entry's heading.
        let heading: String
        let bars: [Bar]
        /// The error's text, or nil.
        let error: String?
        /// The sizes in bytes of the embedded thumbnails (decoded from base64).
        let thumbnails: [Int]
    }

    struct Bar: Decodable {
        let name: String
        let score: Float?
        let index: Int?
    }

    /// A band of the video timeline.
    struct Span: Decodable, Equatable, CustomStringConvertible {
        let category: String
        let fromMilliseconds: Int
        let toMilliseconds: Int
        let frames: Int
        var description: String { "\(category) \(fromMilliseconds)-\(toMilliseconds) ms, \(frames) frames" }
    }

    let title: String
    let entries: [Entry]
    let spans: [Span]
    /// Whether the closing summary is there.
    let summary: Bool
    /// The summary's counts per top category, as shown ("cheeseburger": 2).
    let counts: [String: Int]
    let scripts: Int
    /// Attributes whose name starts with "on" (event handlers), as "tag.attribute".
    let handlers: [String]
    /// `src` of images that are not `data:image/webp;base64,` thumbnails, and `href`s of links.
    let externalReferences: [String]

    /// Parses the serialized DOM of a report.
    static func parse(_ dom: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> ReportDOM {
        let python = try #require(ExternalProgram.find(["python3"]), "python3 not found", sourceLocation: sourceLocation)
        let run = try await ExternalProgram.run(python, ["-c", script], input: Data(dom.utf8), sourceLocation: sourceLocation)
        try #require(run.status == 0, "\(run)", sourceLocation: sourceLocation)
        return try JSONDecoder().decode(ReportDOM.self, from: run.stdout)
    }

    private static let script = #"""
        import base64, json, sys
        from html.parser import HTMLParser

        VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}

        class Report(HTMLParser):
            def __init__(self):
                super().__init__(convert_charrefs=True)
                self.stack = []  # [tag, collector or None]
                self.out = {"title": "", "entries": [], "spans": [], "summary": False, "counts": {}, "scripts": 0,
                            "handlers": [], "externalReferences": []}
                self.entry = None
                self.count_row = None

            def collect(self, text):
                for tag, collector in reversed(self.stack):
                    if collector is not None:
                        collector[0][collector[1]] += text
                        return

            def handle_starttag(self, tag, attrs):
                a = dict(attrs)
                classes = (a.get("class") or "").split()
                for name, _ in attrs:
                    if name.lower().startswith("on"):
                        self.out["handlers"].append(tag + "." + name)
                if tag == "script":
                    self.out["scripts"] += 1
                if tag in ("link", "iframe", "object", "embed", "a") and (a.get("href") or a.get("src")):
                    self.out["externalReferences"].append(a.get("href") or a.get("src"))
                collector = None
                if tag == "title" and not self.out["title"]:
                    collector = (self.out, "title")
                elif tag == "article" and "entry" in classes:
                    self.entry = {"image": a.get("data-image"), "category": a.get("data-category"), "classes": classes,
                                  "heading": "", "bars": [], "error": None, "thumbnails": []}
                    self.out["entries"].append(self.entry)
                elif tag == "img":
                    src = a.get("src") or ""
                    prefix = "data:image/webp;base64,"
                    if src.startswith(prefix) and self.entry is not None:
                        self.entry["thumbnails"].append(len(base64.b64decode(src[len(prefix):])))
                    else:
                        self.out["externalReferences"].append(src)
                elif tag == "h2" and self.entry is not None:
                    collector = (self.entry, "heading")
                elif tag == "li" and "bar" in classes and self.entry is not None:
                    bar = {"name": "", "score": float(a["data-score"]) if "data-score" in a else None,
                           "index": int(a["data-index"]) if "data-index" in a else None}
                    self.entry["bars"].append(bar)
                elif tag == "li" and "bar" in classes and self.out["summary"]:
                    self.count_row = {"name": "", "count": ""}
                elif tag == "span" and "name" in classes and self.entry is not None and self.entry["bars"]:
                    collector = (self.entry["bars"][-1], "name")
                elif tag == "span" and "name" in classes and self.count_row is not None:
                    collector = (self.count_row, "name")
                elif tag == "span" and "score" in classes and self.count_row is not None:
                    collector = (self.count_row, "count")
                elif tag == "div" and "error" in classes and self.entry is not None:
                    self.entry["error"] = ""
                    collector = (self.entry, "error")
                elif tag == "section" and "summary" in classes:
                    self.out["summary"] = True
                    self.entry = None
                elif tag == "rect" and "span" in classes:
                    self.out["spans"].append({"category": a.get("data-category"), "fromMilliseconds": int(a["data-from"]),
                                              "toMilliseconds": int(a["data-to"]), "frames": int(a["data-frames"])})
                if tag not in VOID:
                    self.stack.append((tag, collector))

            def handle_endtag(self, tag):
                while self.stack:
                    top, _ = self.stack.pop()
                    if top == "article":
                        self.entry = None
                    if top == "li" and self.count_row is not None:
                        self.out["counts"][self.count_row["name"]] = int(self.count_row["count"])
                        self.count_row = None
                    if top == tag:
                        break

            def handle_data(self, data):
                self.collect(data)

        parser = Report()
        parser.feed(sys.stdin.read())
        parser.close()
        print(json.dumps(parser.out))
        """#
}
