import ImageTasks
import TasksCommon
import VisionTasks

/// One processed video frame as the runner hands it on: where it is in the video, the picture
/// the task was given and what the task made of it.
package struct VideoFrameOutcome<Value: Sendable>: Sendable {
    /// The frame's place among the decoded frames, from 0 (frames left out or not sampled count).
    package let index: Int
    /// The timestamp the task was given, in milliseconds (the container's, or moved up by `.bump`).
    package let timestampInMilliseconds: Int
    /// The frame with the run's orientation applied, as the task received it.
    package let image: MPImage
    /// The task's result, or its error (only with `FrameErrorPolicy.continue`: with `.stop` the
    /// error ends the run instead).
    package let result: Result<Value, TasksError>
}
