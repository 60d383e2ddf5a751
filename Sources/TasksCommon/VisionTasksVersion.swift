/// The version of SwiftVisionTasks, as `vision-tasks --version` and the model server's metadata
/// (`GET /v2`) report it: set here, and only here, for each release.
package let visionTasksVersion = "0.1.0"
