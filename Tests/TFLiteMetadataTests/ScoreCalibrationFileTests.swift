import Foundation
import TFLiteMetadata
import TasksCommon
import TestSupport
import Testing

/// Score calibration files as MediaPipe's `ConfigureScoreCalibration` reads them.
@Suite struct ScoreCalibrationFileTests {
    @Test(
        arguments: [
            ("1,2,3", [Sigmoid(scale: 1, slope: 2, offset: 3)]),
            ("1,2,3,0.5", [Sigmoid(scale: 1, slope: 2, offset: 3, minScore: 0.5)]),
            (
                "0.9,1.0,-0.2\n\n0.5,-1,2e1,1E-3",
                [
                    Sigmoid(scale: 0.9, slope: 1, offset: -0.2), nil, Sigmoid(scale: 0.5, slope: -1, offset: 20, minScore: 0.001),
                ]
            ),
            // Split on "\n" only: a trailing newline adds an empty (default score) entry.
            ("1,2,3\n", [Sigmoid(scale: 1, slope: 2, offset: 3), nil]),
            ("\n", [nil, nil]),
            // SimpleAtof trims ASCII whitespace (so "\r\n" files work) and accepts a leading "+".
            ("1,2,3\r\n 4 , +5,\t6 \r", [Sigmoid(scale: 1, slope: 2, offset: 3), Sigmoid(scale: 4, slope: 5, offset: 6)]),
            ("0,0,0", [Sigmoid(scale: 0, slope: 0, offset: 0)]),
            (".5,5.,-0", [Sigmoid(scale: 0.5, slope: 5, offset: 0)]),
            ("inf,1,1", [Sigmoid(scale: .infinity, slope: 1, offset: 1)]),
            ("1e39,-1e39,1e-50", [Sigmoid(scale: .infinity, slope: -.infinity, offset: 0)]),
        ] as [(String, [Sigmoid?])])
    func parse(text: String, sigmoids: [Sigmoid?]) throws {
        #expect(try ScoreCalibrationFile.parse(Data(text.utf8)) == sigmoids)
    }

    @Test func nanIsAccepted() throws {
        let sigmoid = try #require(try ScoreCalibrationFile.parse(Data("1,NaN,2".utf8)).first ?? nil)
        #expect(sigmoid.slope.isNaN)
    }

    @Test(arguments: [
        ("", "Expected non-empty score calibration file."),
        ("1,2", "Expected 3 or 4 parameters per line in score calibration file, got 2. (score calibration file line 1)"),
        (
            "1,2,3\n1,2,3,4,5",
            "Expected 3 or 4 parameters per line in score calibration file, got 5. (score calibration file line 2)"
        ),
        ("1,2,3\n\r", "Expected 3 or 4 parameters per line in score calibration file, got 1. (score calibration file line 2)"),
        ("1,2,3,", "Could not parse score calibration parameter as float: . (score calibration file line 1)"),
        ("1,x,3", "Could not parse score calibration parameter as float: x. (score calibration file line 1)"),
        ("1,2,3abc", "Could not parse score calibration parameter as float: 3abc. (score calibration file line 1)"),
        ("1,0x10,3", "Could not parse score calibration parameter as float: 0x10. (score calibration file line 1)"),
        ("1,+-2,3", "Could not parse score calibration parameter as float: +-2. (score calibration file line 1)"),
        ("1,1e,3", "Could not parse score calibration parameter as float: 1e. (score calibration file line 1)"),
        ("1,.,3", "Could not parse score calibration parameter as float: .. (score calibration file line 1)"),
        ("1,2 3,3", "Could not parse score calibration parameter as float: 2 3. (score calibration file line 1)"),
        ("-1,2,3", "The scale parameter of the sigmoids must be positive, found -1.000000. (score calibration file line 1)"),
        (
            "1,2,3\n\n-0.5,2,3",
            "The scale parameter of the sigmoids must be positive, found -0.500000. (score calibration file line 3)"
        ),
    ])
    func errors(text: String, message: String) {
        expectTasksError(.invalidArgumentError, message: message) { _ = try ScoreCalibrationFile.parse(Data(text.utf8)) }
    }
}
