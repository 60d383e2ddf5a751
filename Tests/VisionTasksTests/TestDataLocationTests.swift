import Foundation
import TestSupport
import Testing

/// A test data folder named explicitly must exist: otherwise every data test would be skipped
/// and the run would look green.
@Test func anExplicitTestDataFolderExists() {
    guard let path = ProcessInfo.processInfo.environment[TestData.environmentVariable] else { return }
    var isDirectory: ObjCBool = false
    #expect(
        FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue,
        "\(TestData.environmentVariable) names \(path), which is not a folder")
}
