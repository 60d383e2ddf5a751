extension TasksError {
    /// What an error is about: a file by its path, a video source by its URL, an option by its
    /// name, or data held in memory by a description ("model asset buffer").
    ///
    /// A struct with static constructors rather than an enum, so that kinds can be added
    /// without breaking callers' `switch` statements.
    public struct Subject: Sendable, Hashable, CustomStringConvertible {
        /// The kind of thing at fault.
        public struct Kind: RawRepresentable, Sendable, Hashable {
            /// The kind's name, such as "file".
            public let rawValue: String
            /// A kind named `rawValue`; use the static members for the kinds the tasks raise.
            public init(rawValue: String) { self.rawValue = rawValue }

            /// A file or folder, named by its path.
            public static let file = Kind(rawValue: "file")
            /// A video file, URL, pipe or camera, named as it was opened.
            public static let videoSource = Kind(rawValue: "videoSource")
            /// An option, named as the API or command line spells it.
            public static let option = Kind(rawValue: "option")
            /// Bytes given in memory, named by a description.
            public static let buffer = Kind(rawValue: "buffer")
            /// A model published on a model source, named as it is published (`RemoteModel.name`).
            public static let remoteModel = Kind(rawValue: "remoteModel")
        }

        /// The kind of thing at fault.
        public let kind: Kind
        /// Its path, URL, option name or description.
        public let name: String

        /// A subject of any kind.
        public init(kind: Kind, name: String) {
            self.kind = kind
            self.name = name
        }

        /// A file or folder at `path`.
        public static func file(_ path: String) -> Subject { Subject(kind: .file, name: path) }
        /// A video source opened as `url`.
        public static func videoSource(_ url: String) -> Subject { Subject(kind: .videoSource, name: url) }
        /// The option called `name`.
        public static func option(_ name: String) -> Subject { Subject(kind: .option, name: name) }
        /// Bytes in memory described as `description`.
        public static func buffer(_ description: String) -> Subject { Subject(kind: .buffer, name: description) }

        /// The remote model published as `name`.
        public static func remoteModel(_ name: String) -> Subject { Subject(kind: .remoteModel, name: name) }

        /// The name, as messages show it.
        public var description: String { name }
    }
}
