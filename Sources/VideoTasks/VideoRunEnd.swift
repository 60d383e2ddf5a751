import ImageTasks
import TasksCommon

/// How a video run ended.
package struct VideoRunEnd: Sendable {
    /// What stopped the run early: a read error (the frames before it were processed), a
    /// frame's error under `FrameErrorPolicy.stop`, or the error the per-frame closure threw.
    /// Nil at the end of the video or when a stop was requested.
    package let failure: TasksError?
    /// What the run saw, damage included.
    package let facts: VideoRunFacts
}
