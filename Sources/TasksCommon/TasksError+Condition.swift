extension TasksError {
    /// What the package's own code recognises an error as, where a branch treats it apart: a
    /// value compared as such, so that no branch reads the reason's text.
    ///
    /// A struct with static members rather than an enum, so that conditions can be added
    /// without breaking `switch` statements.
    package struct Condition: Sendable, Hashable {
        private let name: String

        private init(_ name: String) { self.name = name }

        /// A model file that is not there, in MediaPipe's words ("Unable to open file at PATH:
        /// ..."): the reason names the file, so `message` does not put the subject in front.
        package static let modelFileNotFound = Condition("modelFileNotFound")
        /// A folder given as an image source that holds no image (`ImageSource.emptyFolderError`):
        /// the command line reports it as a usage error.
        package static let emptyFolder = Condition("emptyFolder")
    }
}
