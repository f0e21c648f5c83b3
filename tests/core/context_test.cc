#include "core/context/context.h"

#include <gtest/gtest.h>

namespace extdeps {

TEST(Context, HostPathJoinsTheRoot) {
  auto ctx = Context::for_test("/tmp/fixture/");
  EXPECT_EQ(ctx.host_path("/var/lib/dpkg/status"), "/tmp/fixture/var/lib/dpkg/status");
  auto real = Context::for_test("/");
  EXPECT_EQ(real.host_path("/etc/os-release"), "/etc/os-release");
}

TEST(Context, WarnsOncePerText) {
  auto ctx = Context::for_test("/");
  ctx.warn("old spelling 'pkg:' read as 'dep:'");
  ctx.warn("old spelling 'pkg:' read as 'dep:'");
  ctx.warn("another");
  EXPECT_EQ(ctx.warnings().size(), 2u);
}

TEST(Context, EnvironmentIsInjected) {
  auto ctx = Context::for_test("/", {{"EXTDEPS_X", "1"}});
  EXPECT_EQ(ctx.env("EXTDEPS_X").value_or(""), "1");
  EXPECT_FALSE(ctx.env("HOME").has_value());
}

}  // namespace extdeps
