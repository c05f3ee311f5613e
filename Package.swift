// swift-tools-version:6.0
import PackageDescription

let strictSwift: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

// Every file in Snippets/ is also built, by SwiftPM's own rule, as a program of its name
// (`swift run Counter`): the Swift snippets of README.md and the DocC catalogs, which
// DocumentationTests compares with the text and runs.
let package = Package(
    name: "SceneCoordinator",
    products: [
        .library(name: "SceneJSON", targets: ["SceneJSON"]),
        .library(name: "SceneSync", targets: ["SceneSync"]),
        .library(name: "SceneFlow", targets: ["SceneFlow"]),
        .library(name: "SceneLinks", targets: ["SceneLinks"]),
        .library(name: "SceneCore", targets: ["SceneCore"]),
        .library(name: "SceneTesting", targets: ["SceneTesting"]),
        .library(name: "SceneSocket", targets: ["SceneSocket"]),
        .library(name: "SceneWire", targets: ["SceneWire"]),
        .library(name: "SceneCoordinator", targets: ["SceneCoordinator"]),
        .library(name: "SceneClient", targets: ["SceneClient"]),
        .executable(name: "scenectl", targets: ["scenectl"]),
        .executable(name: "flow-tour", targets: ["flow-tour"]),
        .executable(name: "flow-bench", targets: ["flow-bench"]),
        .executable(name: "link-tour", targets: ["link-tour"]),
        .executable(name: "scene-tour", targets: ["scene-tour"]),
        .executable(name: "swift-scene", targets: ["swift-scene"]),
        .executable(name: "mixed-app", targets: ["mixed-app"]),
        .executable(name: "link-bench", targets: ["link-bench"]),
        .executable(name: "registry-bench", targets: ["registry-bench"]),
        .executable(name: "wire-bench", targets: ["wire-bench"]),
        .executable(name: "scene-bench", targets: ["scene-bench"]),
        .executable(name: "behavior-bench", targets: ["behavior-bench"]),
        .executable(name: "soak", targets: ["soak"]),
    ],
    targets: [
        .target(name: "SceneSync", swiftSettings: strictSwift),
        .target(name: "SceneJSON", swiftSettings: strictSwift),
        .target(name: "SceneFlow", dependencies: ["SceneSync"], swiftSettings: strictSwift),
        .target(name: "SceneLinks", dependencies: ["SceneFlow", "SceneJSON"], swiftSettings: strictSwift),
        .target(name: "SceneCore", dependencies: ["SceneFlow", "SceneJSON", "SceneLinks", "SceneSync", "CSceneSystem"], swiftSettings: strictSwift),
        .target(name: "CSceneSystem"),
        .target(name: "SceneSocket", dependencies: ["CSceneSystem", "SceneSync"], swiftSettings: strictSwift),
        .target(name: "SceneWire", dependencies: ["SceneFlow", "SceneJSON", "SceneCore", "SceneSocket"], swiftSettings: strictSwift),
        .target(
            name: "SceneCoordinator", dependencies: ["SceneFlow", "SceneJSON", "SceneLinks", "SceneCore", "SceneWire", "SceneSocket", "SceneSync"],
            swiftSettings: strictSwift),
        .target(
            name: "SceneClient", dependencies: ["SceneFlow", "SceneJSON", "SceneCore", "SceneWire", "SceneSocket", "SceneSync"],
            swiftSettings: strictSwift),
        .executableTarget(
            name: "scenectl",
            dependencies: ["SceneFlow", "SceneJSON", "SceneCore", "SceneWire", "SceneSocket", "SceneCoordinator", "SceneClient", "SceneSync"],
            swiftSettings: strictSwift),
        .target(
            name: "SceneTesting",
            dependencies: [
                "SceneCore", "SceneFlow", "SceneJSON", "SceneSync", "SceneSocket", "SceneWire", "SceneCoordinator", "SceneClient",
            ], resources: [.copy("Resources/xwindows.py")], swiftSettings: strictSwift),
        .executableTarget(
            name: "flow-tour", dependencies: ["SceneFlow", "SceneJSON"], path: "Examples/flow-tour",
            swiftSettings: strictSwift),
        .target(name: "BenchSupport", dependencies: ["SceneSocket"], path: "Benchmarks/BenchSupport", swiftSettings: strictSwift),
        .executableTarget(
            name: "flow-bench", dependencies: ["SceneFlow", "SceneJSON", "BenchSupport"], path: "Benchmarks/flow-bench",
            swiftSettings: strictSwift),
        .executableTarget(
            name: "link-tour", dependencies: ["SceneLinks", "SceneJSON"], path: "Examples/link-tour",
            swiftSettings: strictSwift),
        .executableTarget(
            name: "scene-tour", dependencies: ["SceneCore", "SceneFlow"], path: "Examples/scene-tour",
            swiftSettings: strictSwift),
        .target(
            name: "NotebookScene", dependencies: ["SceneCore", "SceneFlow"], path: "Examples/notebook-scene",
            swiftSettings: strictSwift),
        .executableTarget(
            name: "swift-scene", dependencies: ["SceneClient", "SceneCore", "SceneJSON", "NotebookScene"], path: "Examples/swift-scene",
            swiftSettings: strictSwift),
        .executableTarget(
            name: "mixed-app", dependencies: ["SceneCoordinator", "SceneCore", "SceneFlow", "SceneJSON", "SceneClient", "NotebookScene"],
            path: "Examples/mixed-app", swiftSettings: strictSwift),
        .executableTarget(
            name: "link-bench", dependencies: ["SceneLinks", "SceneJSON", "BenchSupport"], path: "Benchmarks/link-bench",
            swiftSettings: strictSwift),
        .executableTarget(
            name: "registry-bench", dependencies: ["SceneCore", "SceneFlow", "SceneJSON", "BenchSupport"], path: "Benchmarks/registry-bench",
            swiftSettings: strictSwift),
        .executableTarget(
            name: "wire-bench",
            dependencies: ["SceneCore", "SceneFlow", "SceneJSON", "SceneSocket", "SceneCoordinator", "SceneClient", "NotebookScene", "BenchSupport"],
            path: "Benchmarks/wire-bench", swiftSettings: strictSwift),
        .executableTarget(
            name: "scene-bench",
            dependencies: ["SceneCore", "SceneFlow", "SceneJSON", "SceneCoordinator", "SceneClient", "BenchSupport"],
            path: "Benchmarks/scene-bench", swiftSettings: strictSwift),
        .executableTarget(
            name: "attach-bench", dependencies: ["SceneJSON", "SceneClient", "SceneTesting", "BenchSupport"],
            path: "Benchmarks/attach-bench", swiftSettings: strictSwift),
        .executableTarget(
            name: "window-bench", dependencies: ["SceneJSON", "SceneClient", "SceneTesting", "BenchSupport"],
            path: "Benchmarks/window-bench", swiftSettings: strictSwift),
        .executableTarget(
            name: "fairness-bench", dependencies: ["SceneJSON", "SceneClient", "SceneSocket", "BenchSupport"],
            path: "Benchmarks/fairness-bench", swiftSettings: strictSwift),
        .executableTarget(
            name: "behavior-bench", dependencies: ["SceneCore", "SceneFlow", "SceneJSON", "SceneCoordinator", "BenchSupport"],
            path: "Benchmarks/behavior-bench", swiftSettings: strictSwift),
        .executableTarget(
            name: "soak", dependencies: ["SceneFlow", "SceneJSON", "SceneClient", "BenchSupport"], path: "Benchmarks/soak",
            swiftSettings: strictSwift),
        .testTarget(name: "SceneSyncTests", dependencies: ["SceneSync"], swiftSettings: strictSwift),
        .testTarget(name: "SceneJSONTests", dependencies: ["SceneJSON"], swiftSettings: strictSwift),
        .testTarget(name: "SceneFlowTests", dependencies: ["SceneFlow", "SceneJSON", "SceneSync"], swiftSettings: strictSwift),
        .testTarget(
            name: "SceneLinksTests", dependencies: ["SceneLinks", "SceneFlow", "SceneJSON"], swiftSettings: strictSwift),
        .testTarget(
            name: "SceneWireTests", dependencies: ["SceneWire", "SceneFlow", "SceneJSON", "SceneSocket", "SceneCore"],
            swiftSettings: strictSwift),
        .testTarget(name: "SceneSocketTests", dependencies: ["SceneSocket", "SceneSync"], swiftSettings: strictSwift),
        .testTarget(
            name: "IntegrationTests",
            dependencies: [
                "SceneFlow", "SceneJSON", "SceneCore", "SceneWire", "SceneSocket", "SceneCoordinator", "SceneClient", "SceneSync", "scenectl",
                "swift-scene", "mixed-app", "NotebookScene", "SceneTesting",
            ],
            swiftSettings: strictSwift),
        .testTarget(
            name: "SceneTestingTests", dependencies: ["SceneTesting", "SceneClient", "SceneCore", "SceneFlow", "SceneJSON", "SceneSocket", "SceneSync"],
            swiftSettings: strictSwift),
        .testTarget(
            name: "SceneCoordinatorTests", dependencies: ["SceneCoordinator", "SceneCore", "SceneWire"], swiftSettings: strictSwift),
        .testTarget(
            name: "SceneCoreTests",
            dependencies: ["SceneCore", "SceneFlow", "SceneJSON", "SceneLinks", "SceneTesting", "SceneSync", "SceneSocket"],
            swiftSettings: strictSwift),
    ]
)
