# The pkgconf provider reads .pc files through libpkgconf (linked; Debian's libpkgconf-dev).
pkg_check_modules(PKGCONF REQUIRED IMPORTED_TARGET libpkgconf)
list(APPEND EXTDEPS_PROVIDER_LIBRARIES PkgConfig::PKGCONF)
