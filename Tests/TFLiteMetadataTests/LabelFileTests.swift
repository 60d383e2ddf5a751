import Foundation
import TFLiteMetadata
import TasksCommon
import TestSupport
import Testing

/// Label splitting as MediaPipe's `ForEachLine` + `BuildLabelMapFromFiles`: lines end at
/// "\n", "\r" or "\r\n", a final terminator does not start a line, and one trailing empty
/// line is dropped.
@Suite struct LabelFileTests {
    @Test(
        arguments: [
            ("", []),
            ("\n", []),
            ("a", ["a"]),
            ("a\nb\n", ["a", "b"]),
            ("a\nb", ["a", "b"]),
            ("a\r\nb\rc", ["a", "b", "c"]),
            ("a\r\n", ["a"]),
            ("a\r\r", ["a"]),
            ("a\n\r\n", ["a"]),
            // "a\n\n" has the lines "a" and ""; the trailing empty line is dropped.
            ("a\n\n", ["a"]),
            ("a\n\n\n", ["a", ""]),
            ("\na", ["", "a"]),
            ("a\n\nb", ["a", "", "b"]),
            (" a \t\n b", [" a \t", " b"]),
            ("h\u{e9}t\u{e9}\nna\u{ef}ve", ["h\u{e9}t\u{e9}", "na\u{ef}ve"]),
        ] as [(String, [String])])
    func parse(text: String, labels: [String]) {
        #expect(LabelFile.parse(Data(text.utf8)) == labels)
    }

    /// The writer's reading: a leading byte order mark is dropped, bytes that are not UTF-8 are
    /// refused with the line, and valid text (U+FFFD included) reads as `parse` reads it.
    @Test func parseForWriting() throws {
        #expect(try LabelFile.parseForWriting(Data([0xEF, 0xBB, 0xBF] + Array("a\nb\n".utf8)), fileName: "l.txt") == ["a", "b"])
        #expect(try LabelFile.parseForWriting(Data("a\n\u{FFFD}\n".utf8), fileName: "l.txt") == ["a", "\u{FFFD}"])
        #expect(try LabelFile.parseForWriting(Data("a\u{FEFF}\n".utf8), fileName: "l.txt") == ["a\u{FEFF}"])
        expectTasksError(
            .invalidArgumentError,
            containing: "Labels file l.txt is not UTF-8 text (line 2 has bytes that are not UTF-8); save it as UTF-8."
        ) {
            try LabelFile.parseForWriting(Data(Array("a\n".utf8) + [0x63, 0xE9, 0x0A, 0x62]), fileName: "l.txt")
        }
    }

    @Test func sliceOfLargerData() {
        let data = Data("xx\na\nb".utf8)
        #expect(LabelFile.parse(data[3...]) == ["a", "b"])
    }

    @Test func invalidUTF8IsReplaced() {
        #expect(LabelFile.parse(Data([0x61, 0xFF, 0x0A, 0x62])) == ["a\u{FFFD}", "b"])
    }
}
