import ImageTasks
import Testing
import VideoTasks

/// The two policies for frames whose timestamp does not increase.
struct FrameTimestampsTests {
    @Test(
        arguments: [
            (FrameTimestamps.Policy.skip, [0, 33, 33, 20, 66], [0, 33, nil, nil, 66], 2),
            (.bump, [0, 33, 33, 20, 66], [0, 33, 34, 35, 66], 2),
            (.bump, [5, 5, 5, 7], [5, 6, 7, 8], 3),
            (.skip, [Int.min, Int.min, 0], [Int.min, nil, 0], 1),
            (.bump, [Int.max - 1, Int.max - 1, Int.max, 3], [Int.max - 1, Int.max, nil, nil], 3),
        ] as [(FrameTimestamps.Policy, [Int], [Int?], Int)])
    func admits(policy: FrameTimestamps.Policy, stamps: [Int], expected: [Int?], adjusted: Int) {
        var timestamps = FrameTimestamps(policy)
        #expect(stamps.map { timestamps.admit($0) } == expected)
        #expect(timestamps.adjusted == adjusted)
        #expect(timestamps.last == expected.compactMap { $0 }.last)
    }
}
