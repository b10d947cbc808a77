#pragma once
// A study's model when it is a server (an "endpoint"): an OpenAI-compatible HTTP API such as
// vLLM, SGLang, TGI, llama.cpp's server, Ollama or `transformers serve` (docs/study-file.md):
//   "model": {"endpoint": "http://127.0.0.1:8000/v1", "name": "smollm2",
//             "api": "completions" | "chat", "api_key_env": "OPENAI_API_KEY",
//             "labels": {"server": "vllm 0.x --enable-prefix-caching"}}
// The key is read from the named environment variable when a request is made and is never
// stored; the URL may not carry credentials. The labels are what the user declares about the
// server's own settings: they are part of the environment fingerprint of its runs.
// Torch-free, curl-free: studies are validated and shown without the client.
#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

namespace probaudit {

struct EndpointSpec {
    std::string url;   // base URL up to and including the API version ("http://host:8000/v1")
    std::string model; // the "model" field of every request
    std::string api = "completions"; // completions | chat
    std::string api_key_env;         // "" = no key
    std::map<std::string, std::string> labels;
    double timeout_seconds = 300; // one request, connection to last byte
    int max_retries = 3;          // on 429, 5xx, a broken connection or a timeout
    int top_logprobs = 5;         // alternatives asked for per generated token (0: none)

    // Every problem found is appended to `errors` as "PATH: problem"; returns what could be read.
    static EndpointSpec fromJson(const nlohmann::json& j, const std::string& path,
                                 std::vector<std::string>& errors);
    nlohmann::json toJson() const;                          // every field (never a key's value)
    std::string endpointUrl(const std::string& what) const; // url + "/" + what
};

inline constexpr int kMaxEndpointConcurrency = 1024;
inline constexpr int kMaxTopLogprobs = 20;

} // namespace probaudit
