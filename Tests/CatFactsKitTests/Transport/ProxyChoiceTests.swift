import Testing
@testable import CatFactsKit

/// Which proxy a request uses: curl's rules, loopback always direct.
struct ProxyChoiceTests {
    private let environment = ["http_proxy": "http://proxy.corp:3128", "https_proxy": "http://secure.corp:3129",
                               "no_proxy": "internal.corp, .example.org,10.0.0.0/8,192.168.1.7,[fd00::1]"]

    @Test(arguments: ["localhost", "LOCALHOST", "api.localhost", "127.0.0.1", "127.255.3.4", "::1", "[::1]"])
    func loopbackNeverUsesAProxy(host: String) {
        #expect(ProxyChoice.choose(scheme: "http", host: host, option: nil, environment: environment) == .direct)
        #expect(ProxyChoice.choose(scheme: "http", host: host, option: "http://p:1", environment: [:]) == .direct)
    }

    @Test func theEnvironmentVariableOfTheSchemeIsUsed() {
        #expect(ProxyChoice.choose(scheme: "http", host: "catfact.ninja", option: nil, environment: environment)
                == ProxyChoice(proxy: "http://proxy.corp:3128", source: "http_proxy"))
        #expect(ProxyChoice.choose(scheme: "https", host: "catfact.ninja", option: nil, environment: environment)
                == ProxyChoice(proxy: "http://secure.corp:3129", source: "https_proxy"))
    }

    @Test func upperCaseHTTPProxyIsIgnoredAsCurlDoes() {
        #expect(ProxyChoice.choose(scheme: "http", host: "catfact.ninja", option: nil,
                                   environment: ["HTTP_PROXY": "http://p:1"]) == .direct)
        #expect(ProxyChoice.choose(scheme: "https", host: "catfact.ninja", option: nil,
                                   environment: ["HTTPS_PROXY": "http://p:1"]).source == "HTTPS_PROXY")
        #expect(ProxyChoice.choose(scheme: "http", host: "catfact.ninja", option: nil,
                                   environment: ["ALL_PROXY": "socks5h://p:1"]).proxy == "socks5h://p:1")
    }

    @Test(arguments: ["internal.corp", "api.internal.corp", "example.org", "www.example.org", "10.1.2.3", "192.168.1.7",
                      "[fd00::1]"])
    func noProxyHostsGoDirect(host: String) {
        #expect(ProxyChoice.choose(scheme: "http", host: host, option: nil, environment: environment) == .direct)
    }

    @Test(arguments: ["notinternal.corp", "example.org.evil", "11.0.0.1", "192.168.1.8", "corp"])
    func otherHostsUseTheProxy(host: String) {
        #expect(ProxyChoice.choose(scheme: "http", host: host, option: nil, environment: environment).proxy
                == "http://proxy.corp:3128")
    }

    @Test func theOptionOverridesTheEnvironmentAndEmptyMeansNone() {
        #expect(ProxyChoice.choose(scheme: "http", host: "catfact.ninja", option: "http://mine:8080", environment: environment)
                == ProxyChoice(proxy: "http://mine:8080", source: "the proxy option"))
        #expect(ProxyChoice.choose(scheme: "http", host: "catfact.ninja", option: "", environment: environment) == .direct)
        #expect(ProxyChoice.choose(scheme: "http", host: "x.corp", option: nil,
                                   environment: ["http_proxy": "http://p:1", "no_proxy": "*"]) == .direct)
    }

    @Test func passwordsAreNeverShown() {
        #expect(ProxyChoice.redacted("http://user:secret@proxy:3128") == "http://user:***@proxy:3128")
        #expect(ProxyChoice.redacted("http://user@proxy:3128") == "http://user@proxy:3128")
        #expect(ProxyChoice.redacted("http://proxy:3128/a@b") == "http://proxy:3128/a@b")
        #expect(ProxyChoice.redacted("proxy:3128") == "proxy:3128")
    }

    @Test func aProxyThatIsNoURLIsRefusedAtOpen() {
        var options = ClientOptions()
        options.proxy = "proxy.corp:3128"
        #expect(throws: CatFactsError.self) { try CatFactsClient(options: options) }
        options.proxy = "http://user:pw@proxy.corp:3128\r\nX: y"
        do {
            _ = try CatFactsClient(options: options)
            Issue.record("a proxy with CR LF was accepted")
        } catch {
            #expect(error.description.contains("user:***@"))
            #expect(!error.description.contains("pw"))
        }
    }
}
