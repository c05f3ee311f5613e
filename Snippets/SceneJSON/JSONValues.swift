import SceneJSON

let route: JSONValue = ["screen": "page", "doc": 42]
let same = try JSONParser.parse(#"{"doc": 42.0, "screen": "page"}"#)
print(route == same)                       // key order and 42 against 42.0 do not matter
print(route)                               // compact, keys sorted
print(route.contains(["screen": "page"]))
print(route["doc"]?.intValue ?? 0)

struct Page: Codable { var screen: String; var doc: Int }

let page = try route.decoded(as: Page.self)
print(page.screen, page.doc)
print(try JSONValue.encoded(page) == route)
