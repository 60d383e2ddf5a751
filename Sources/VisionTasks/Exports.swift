@_exported import TasksCommon
