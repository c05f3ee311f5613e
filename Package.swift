// swift-tools-version:6.0
import PackageDescription

let strictSwift: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "SceneCoordinator",
    products: [
        .library(name: "SceneFlow", targets: ["SceneFlow"]),
        .executable(name: "flow-tour", targets: ["flow-tour"]),
        .executable(name: "flow-bench", targets: ["flow-bench"]),
    ],
    targets: [
        .target(name: "SceneFlow", swiftSettings: strictSwift),
        .executableTarget(
            name: "flow-tour", dependencies: ["SceneFlow"], path: "Examples/flow-tour",
            swiftSettings: strictSwift),
        .executableTarget(
            name: "flow-bench", dependencies: ["SceneFlow"], path: "Benchmarks/flow-bench",
            swiftSettings: strictSwift),
        .testTarget(name: "SceneFlowTests", dependencies: ["SceneFlow"], swiftSettings: strictSwift),
    ]
)
