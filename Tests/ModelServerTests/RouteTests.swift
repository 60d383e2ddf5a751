import Testing

@testable import ModelServer

/// The web app's routes and job names.
struct RouteTests {
    @Test func videoRoutes() {
        #expect(Route(path: "/v1/models/m/classify-video") == .classifyVideo("m"))
        #expect(Route(path: "/v1/models/m/classify-video")?.method == "POST")
        #expect(Route(path: "/v1/models/m/classify-video")?.model == "m")
        #expect(Route(path: "/v1/videos/job-1") == .videoProgress("job-1"))
        #expect(Route(path: "/v1/videos/job-1")?.method == "GET")
        #expect(Route(path: "/v1/videos") == nil)
        #expect(Route(path: "/v1/models/m") == .modelDetails("m"))
        #expect(Route(path: "/v1/models/m")?.method == "GET")
        #expect(Route(path: "/v1/videos/a/b") == nil)
        #expect(Route(path: "/v1/models/m/classify-video/x") == nil)
    }

    @Test func jobNames() {
        #expect(VideoJobs.isValidName("v1ab-2_c"))
        #expect(VideoJobs.isValidName(String(repeating: "a", count: 64)))
        for bad in ["", String(repeating: "a", count: 65), "a b", "a/b", "é", "a.b"] {
            #expect(!VideoJobs.isValidName(bad), "\(bad)")
        }
    }

    @Test func progressIsKeptWhileAJobRuns() {
        let jobs = VideoJobs()
        #expect(jobs.begin(limit: 1))
        #expect(!jobs.begin(limit: 1))
        jobs.update("j", fraction: 0.5)
        #expect(jobs.fraction("j") == 0.5)
        jobs.update("j", fraction: nil)
        #expect(jobs.fraction("j") == nil)
        jobs.end()
        #expect(jobs.begin(limit: 1))
    }
}
