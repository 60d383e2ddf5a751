import Foundation
import TFLiteMetadata
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

    @Test func sliceOfLargerData() {
        let data = Data("xx\na\nb".utf8)
        #expect(LabelFile.parse(data[3...]) == ["a", "b"])
    }

    @Test func invalidUTF8IsReplaced() {
        #expect(LabelFile.parse(Data([0x61, 0xFF, 0x0A, 0x62])) == ["a\u{FFFD}", "b"])
    }
}
