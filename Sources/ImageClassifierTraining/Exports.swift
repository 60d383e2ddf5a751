// What `import ImageClassifierTraining` brings besides this module: the error type its API
// throws (`TasksError` with its `TasksErrorCode`), as `import VisionTasks` does.
@_exported import TasksCommon
