import Foundation
import Testing

@testable import ModelServer

/// Multipart parts put together from the post processor's pieces.
struct FormFilesTests {
    private func receive(_ form: inout FormFiles, _ field: String, _ filename: String?, _ offset: UInt64, _ bytes: String) {
        Array(bytes.utf8).withUnsafeBytes { form.receive(field: field, filename: filename, offset: offset, bytes: $0) }
    }

    @Test func piecesOfAPartMakeOneFile() {
        var form = FormFiles()
        receive(&form, "f", "a.jpg", 0, "ab")
        receive(&form, "f", "a.jpg", 2, "cd")
        receive(&form, "f", "b.jpg", 0, "ef")
        #expect(form.files.map(\.filename) == ["a.jpg", "b.jpg"])
        #expect(form.files.map(\.data) == [Data("abcd".utf8), Data("ef".utf8)])
    }

    /// When a read ends right after a part's headers, the post processor reports the part
    /// empty at offset 0, then its first bytes at offset 0 again.
    @Test func anEmptyFirstPieceStartsNoExtraFile() {
        var form = FormFiles()
        receive(&form, "f", "a.jpg", 0, "ab")
        receive(&form, "f", "b.jpg", 0, "")
        receive(&form, "f", "b.jpg", 0, "cd")
        receive(&form, "f", "b.jpg", 2, "ef")
        receive(&form, "f", "c.jpg", 0, "")
        #expect(form.files.map(\.filename) == ["a.jpg", "b.jpg", "c.jpg"])
        #expect(form.files.map(\.data) == [Data("ab".utf8), Data("cdef".utf8), Data()])
    }

    @Test func partsWithTheSameNamesStaySeparate() {
        var form = FormFiles()
        receive(&form, "f", "a.jpg", 0, "ab")
        receive(&form, "f", "a.jpg", 0, "cd")
        #expect(form.files.map(\.data) == [Data("ab".utf8), Data("cd".utf8)])
    }
}
