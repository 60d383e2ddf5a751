// `import TFLiteMetadata` brings the error type the writer throws.
@_exported import TasksCommon
