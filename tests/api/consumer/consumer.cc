// consumer_cxx PROJECT: the C++ API of an installed libextdeps.
#include <extdeps/extdeps.h>

#include <iostream>

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  extdeps::api::Session session;
  std::cout << "version " << extdeps::api::version() << '\n';
  auto decl = session.load(argv[1]);
  if (!decl.ok()) {
    std::cerr << "error: " << decl.error().message << '\n';
    return static_cast<int>(decl.error().code);
  }
  std::cout << "declaration " << decl->path << " needs " << decl->needs.size() << '\n';
  for (const auto& n : decl->needs) std::cout << "need " << n.category << ' ' << n.id << '\n';
  extdeps::api::Options options;
  options.categories = {"build", "host"};
  auto report = session.check(argv[1], options);
  if (!report.ok()) {
    std::cerr << "error: " << report.error().message << '\n';
    return static_cast<int>(report.error().code);
  }
  std::cout << "checked " << report->needs.size() << " all_satisfied " << report->all_satisfied << '\n';
  auto env = session.env(argv[1], options);
  if (!env.ok()) return static_cast<int>(env.error().code);
  std::cout << "env variables " << env->variables.variables().size() << '\n';
  auto host = session.detect();
  if (!host.ok()) return static_cast<int>(host.error().code);
  std::cout << "host " << host->os << " cuda " << host->cuda_state << '\n';
  std::cout << "host json " << host->json.size() << " bytes\n" << host->json << '\n';
  // A bad path is an error value, not an exception.
  auto bad = session.load(std::string(argv[1]) + "/no-such-folder");
  std::cout << "bad path code " << static_cast<int>(bad.ok() ? extdeps::ExitCode::ok : bad.error().code) << '\n';
  return 0;
}
