# Helpers around Verilator's verilate() for ARIES-sim.
#
# ARIES_RTL_SOURCES: absolute paths of rtl/sources.f, the one ordered source list shared by
# verilate, lint (tests/) and Yosys (synth_scripts/).
set(ARIES_RTL_DIR ${CMAKE_SOURCE_DIR}/rtl)
file(STRINGS ${ARIES_RTL_DIR}/sources.f _aries_src_lines)
set(ARIES_RTL_SOURCES "")
foreach(_line IN LISTS _aries_src_lines)
  string(STRIP "${_line}" _line)
  if(_line STREQUAL "" OR _line MATCHES "^//")
    continue()
  endif()
  list(APPEND ARIES_RTL_SOURCES ${ARIES_RTL_DIR}/${_line})
endforeach()
set_property(DIRECTORY ${CMAKE_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
             ${ARIES_RTL_DIR}/sources.f)

# Flags of every verilated model (../shared/TOOLCHAIN.md).
set(ARIES_VERILATOR_ARGS -O3 -Wno-fatal -I${ARIES_RTL_DIR}/include
    ${ARIES_RTL_DIR}/lint_waivers.vlt)

# aries_verilate(<target> PREFIX <V...> TOP <module> [ASSERT] [TRACE_FST] [PARAMS -GX=1 ...]
#                [EXTRA_SOURCES ...])
# Adds one verilated model to <target>. ASSERT keeps the RTL assertions and gives every
# unreset flop a random initial value (seeded by the test through randReset(2)/randSeed), so a
# missing reset shows up; models for speed leave assertions out and start from zeros.
# Each parameterisation needs its own PREFIX.
function(aries_verilate target)
  cmake_parse_arguments(AV "ASSERT;TRACE_FST" "PREFIX;TOP" "PARAMS;EXTRA_SOURCES" ${ARGN})
  set(args ${ARIES_VERILATOR_ARGS} ${AV_PARAMS})
  if(AV_ASSERT)
    list(APPEND args --assert --x-assign unique --x-initial unique)
  else()
    list(APPEND args --x-assign fast --x-initial fast)
  endif()
  set(opts "")
  if(AV_TRACE_FST)
    set(opts TRACE_FST)
  endif()
  verilate(${target} ${opts}
    PREFIX ${AV_PREFIX}
    TOP_MODULE ${AV_TOP}
    SOURCES ${ARIES_RTL_SOURCES} ${AV_EXTRA_SOURCES}
    VERILATOR_ARGS ${args}
    OPT_FAST -O2 -w
    OPT_SLOW -w
    OPT_GLOBAL -w)
endfunction()
