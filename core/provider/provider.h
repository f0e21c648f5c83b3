// One provider per folder under providers/: it turns a package manager's data into plain
// PackageRecords and renders the commands that install a plan's packages. Providers know nothing
// of libsolv (DESIGN.md decision 6).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/context/context.h"
#include "core/model/record.h"
#include "core/util/result.h"

namespace extdeps {

struct PlannedPackage {
  std::string name;
  std::string version;  // native
  std::string arch;
  std::string build;    // conda's build string; empty elsewhere
};

struct Command {
  std::vector<std::string> argv;
  bool requires_elevation = false;  // needs root: run through sudo when not root
};

// A compiled DepOp::spec relation: does a candidate with this native version and build string
// (PackageRecord::version, ::build) meet it?
class SpecMatcher {
 public:
  virtual ~SpecMatcher() = default;
  virtual bool matches(std::string_view version, std::string_view build) const = 0;
};

// What a cache of loaded records is keyed on: the sources' paths, sizes and mtimes.
struct SourceId {
  std::string key;  // stable text; equal keys mean equal data
};

class Provider {
 public:
  virtual ~Provider() = default;
  // The namespace of its solvables and the name of its mapping table: "debian", "pkgconfig".
  virtual std::string_view ecosystem() const = 0;
  // The manager that installs what it offers ("apt"); empty for a detector such as pkgconf.
  virtual std::string_view manager() const = 0;
  virtual VersionScheme scheme() const = 0;
  // Whether this provider can work on this machine (apt: a dpkg database is there).
  virtual bool available(const Context& ctx) const = 0;
  virtual Result<SourceId> identity(const Context& ctx) const = 0;
  virtual Result<void> load(const Context& ctx, const RecordSink& available,
                            const RecordSink& installed) = 0;
  virtual std::vector<Command> install_commands(const std::vector<PlannedPackage>& packages) const = 0;

  // Compiles the text of a DepOp::spec relation (conda: ">=1.20,<2.0a0 py310*"). Only providers
  // whose records use DepOp::spec override it; the default refuses every spec.
  virtual Result<std::unique_ptr<SpecMatcher>> compile_spec(std::string_view spec) const;
};

// Every compiled-in provider, in default preference order.
std::vector<std::unique_ptr<Provider>> make_providers(const Context& ctx);

}  // namespace extdeps
