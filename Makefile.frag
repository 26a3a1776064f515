# The Lua scripts into C: src/primitives/lua.h, committed, is made again from the .lua files
# when one is newer (scripts/gen_lua.php). A tree without the generator (a pecl tarball)
# builds with the header it has. (The objects' .dep files name it from the build folder, or
# from the source folder when the two differ.)
src/primitives/lua.h $(srcdir)/src/primitives/lua.h: $(wildcard $(srcdir)/src/primitives/lua/*.lua $(srcdir)/src/primitives/lua/*/*.lua)
	@if test -f $(srcdir)/scripts/gen_lua.php; then \
		$(PHP_EXECUTABLE) $(srcdir)/scripts/gen_lua.php && touch $(srcdir)/src/primitives/lua.h; \
	fi
