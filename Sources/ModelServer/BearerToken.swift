import Foundation

/// The bearer token clients must send (`Authorization: Bearer TOKEN`), read from a file.
struct BearerToken: Sendable {
    private let expected: [UInt8]

    /// Reads the token: the file's first line, without surrounding white space.
    /// - Throws: `ServerStartError` when the file cannot be read or holds no token.
    init(file: String) throws(ServerStartError) {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw ServerStartError(message: "cannot read the token file '\(file)'")
        }
        let firstLine =
            String(decoding: data, as: UTF8.self)
            .split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).first ?? ""
        let token = firstLine.trimmingCharacters(in: .whitespaces)
        guard !token.isEmpty else {
            throw ServerStartError(message: "the token file '\(file)' has no token on its first line")
        }
        expected = Array(token.utf8)
    }

    /// Whether an Authorization header value carries the token (`Bearer TOKEN`; the scheme is
    /// case-insensitive, as RFC 7235 has it). The time taken does not depend on where the
    /// tokens differ.
    func accepts(_ authorization: String?) -> Bool {
        guard let authorization, let space = authorization.firstIndex(of: " "),
            authorization[..<space].lowercased() == "bearer"
        else { return false }
        let given = Array(authorization[space...].drop { $0 == " " }.utf8)
        var difference = UInt8(given.count == expected.count ? 0 : 1)
        for index in expected.indices {
            difference |= expected[index] ^ (index < given.count ? given[index] : 0)
        }
        return difference == 0
    }
}
