// The folders this build was configured with. CMake writes their definitions into one generated
// file (<build>/generated/build_paths.cc), so that no compile line names a folder: objects are
// the same whatever tree they are built in, and ccache shares them across worktrees and roots.
#pragma once

namespace extdeps::build_paths {

// <source>/mappings: the tables of an uninstalled build tree.
extern const char* const source_mappings_dir;
// <prefix>/share/extdeps/mappings: where `cmake --install` puts them.
extern const char* const installed_mappings_dir;

}  // namespace extdeps::build_paths
