#pragma once
// `probaudit engine`: the headless engine, driven over stdin/stdout JSON lines (the workbench
// starts it as a child process; over ssh it runs on a GPU server). One request per line:
//   {"id": 1, "method": "env"}                               ->
//   {"id":1,"event":"result","result":{...}}
//   {"id": 2, "method": "run", "params": {"study": PATH, "configs": [..], "all": true,
//                                          "heads": [..], "ledger": PATH, "again": false,
//                                          "skip_bad_lines": false}}
//        -> the run's events, each with "id": 2, then {"id":2,"event":"result","result":{"exit":0}}
//   {"id": 3, "method": "diagnose", "params": {"study": PATH, "ledger": PATH, "head": NAME,
//                                               "sample": 32, "batch": 8, "seed": 1}}
//        -> the probe runs' events, then {"id":3,"event":"result","result":{"exit":0,
//           "diagnosis":{...}}} (the diagnosis as `probaudit diagnose --json` prints it)
//   {"id": 4, "method": "cancel"}   stops the current run after its batch (exit 130)
//   {"id": 5, "method": "shutdown"} cancels, waits, exits
// A malformed request gets {"event":"error","message":...} and the engine keeps serving.
namespace probaudit::app {

int serveEngine();

} // namespace probaudit::app
