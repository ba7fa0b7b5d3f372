// The layer order of core/ as docs/development.md states it, checked on every #include of core's sources:
// an include may point down the order or stay in its own layer, never up; frontends never use
// each other; inside the TVM frontend and inside planners/ the parts keep their own order; and no two
// of these units include each other, directly or around a cycle.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

const fs::path kSource = USMPX_SOURCE_DIR;

std::string read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The comma-separated names after `lead` on a line of docs/development.md ("... top: a, b, c.").
std::vector<std::string> readme_order(const std::string& lead) {
  const std::string readme = read(kSource / "docs" / "development.md");
  const size_t at = readme.find(lead);
  if (at == std::string::npos) return {};
  const size_t colon = readme.find(':', at + lead.size());
  const size_t end = readme.find('.', colon);
  std::vector<std::string> names;
  std::stringstream list(readme.substr(colon + 1, end - colon - 1));
  for (std::string name; std::getline(list, name, ',');) {
    name.erase(std::remove_if(name.begin(), name.end(), [](char c) { return c == ' ' || c == '`' || c == '\n'; }),
               name.end());
    names.push_back(name);
  }
  return names;
}

struct Unit {
  std::string layer;     // top-level folder of core/ ("." for files at its root)
  std::string frontend;  // under frontends/: the frontend's folder, "" for the shared interface
  std::string part;      // inside the TVM frontend or planners/: its first-level folder, "" for root files
  std::string name() const {
    return layer + (frontend.empty() ? "" : "/" + frontend) + (part.empty() ? "" : "/" + part);
  }
  bool operator<(const Unit& o) const { return name() < o.name(); }
};

Unit unit_of(const std::string& core_relative) {
  std::vector<std::string> parts;
  std::stringstream path(core_relative);
  for (std::string p; std::getline(path, p, '/');)
    parts.push_back(p);
  parts.pop_back();  // the file name
  Unit u;
  u.layer = parts.empty() ? "." : parts[0];
  if (u.layer == "frontends" && parts.size() > 1) u.frontend = parts[1];
  if (u.frontend == "tvm" && parts.size() > 2) u.part = parts[2];
  if (u.layer == "planners" && parts.size() > 1) u.part = parts[1];
  return u;
}

int rank_in(const std::vector<std::string>& order, const std::string& name) {
  const auto it = std::find(order.begin(), order.end(), name);
  return it == order.end() ? -1 : static_cast<int>(it - order.begin());
}

struct Include {
  std::string from;  // core-relative file
  std::string to;    // core-relative file it includes
};

// Every quoted include in core/ that names a file of core/ (text inside raw strings, such as the
// C the harness writes, names none).
std::vector<Include> core_includes() {
  std::vector<Include> includes;
  const std::regex include_line(R"re(^\s*#\s*include\s+"([^"]+)")re");
  for (const auto& entry : fs::recursive_directory_iterator(kSource / "core")) {
    const std::string ext = entry.path().extension().string();
    if (!entry.is_regular_file() || (ext != ".h" && ext != ".cpp")) continue;
    const std::string from = fs::relative(entry.path(), kSource / "core").generic_string();
    std::stringstream text(read(entry.path()));
    for (std::string line; std::getline(text, line);) {
      std::smatch m;
      if (std::regex_search(line, m, include_line) && fs::is_regular_file(kSource / "core" / m[1].str()))
        includes.push_back({from, m[1].str()});
    }
  }
  return includes;
}

TEST(Layering, ReadmeStatesTheOrder) {
  const std::vector<std::string> layers = readme_order("Layers of `core/`, bottom to top");
  const std::vector<std::string> tvm = readme_order("Parts of the TVM frontend, bottom to top");
  const std::vector<std::string> planners = readme_order("Parts of `planners/`, bottom to top");
  ASSERT_GE(layers.size(), 8u) << "docs/development.md must list core's layers";
  ASSERT_GE(tvm.size(), 5u) << "docs/development.md must list the TVM frontend's parts";
  ASSERT_GE(planners.size(), 4u) << "docs/development.md must list the parts of planners/";
  // Every folder of core/ (and of the TVM frontend) has its place in the order.
  for (const auto& entry : fs::directory_iterator(kSource / "core")) {
    if (entry.is_directory())
      EXPECT_GE(rank_in(layers, entry.path().filename().string()), 0) << entry.path() << " is in no layer";
  }
  for (const auto& entry : fs::directory_iterator(kSource / "core/frontends/tvm")) {
    if (entry.is_directory())
      EXPECT_GE(rank_in(tvm, entry.path().filename().string()), 0) << entry.path() << " has no place";
  }
  for (const auto& entry : fs::directory_iterator(kSource / "core/planners")) {
    if (entry.is_directory())
      EXPECT_GE(rank_in(planners, entry.path().filename().string()), 0) << entry.path() << " has no place";
  }
}

TEST(Layering, EveryIncludePointsDown) {
  const std::vector<std::string> layers = readme_order("Layers of `core/`, bottom to top");
  const std::vector<std::string> tvm = readme_order("Parts of the TVM frontend, bottom to top");
  const std::vector<std::string> planners = readme_order("Parts of `planners/`, bottom to top");
  // A folder's root files (the TVM frontend itself, the planner registry) sit on top of its parts.
  const auto part_rank = [](const std::vector<std::string>& order, const std::string& part) {
    return part.empty() ? static_cast<int>(order.size()) : rank_in(order, part);
  };
  const std::vector<Include> includes = core_includes();
  ASSERT_GT(includes.size(), 500u);
  std::vector<std::string> wrong;
  for (const Include& inc : includes) {
    const Unit a = unit_of(inc.from);
    const Unit b = unit_of(inc.to);
    std::string why;
    if (rank_in(layers, b.layer) > rank_in(layers, a.layer)) {
      why = "points up from " + a.layer + " to " + b.layer;
    } else if (a.layer == "frontends" && b.layer == "frontends" && a.frontend != b.frontend && !b.frontend.empty()) {
      why = a.frontend.empty() ? "the frontend interface uses a frontend" : "one frontend uses another";
    } else if (a.frontend == "tvm" && b.frontend == "tvm" && a.part != b.part) {
      if (part_rank(tvm, b.part) > part_rank(tvm, a.part))
        why = "points up inside the TVM frontend from " + a.name() + " to " + b.name();
    } else if (a.layer == "planners" && b.layer == "planners" && a.part != b.part) {
      if (part_rank(planners, b.part) > part_rank(planners, a.part))
        why = "points up inside planners/ from " + a.name() + " to " + b.name();
    }
    if (!why.empty()) wrong.push_back(inc.from + " includes " + inc.to + ": " + why);
  }
  std::string list;
  for (const std::string& w : wrong)
    list += "\n  " + w;
  EXPECT_TRUE(wrong.empty()) << wrong.size() << " includes break the layer order:" << list;
}

TEST(Layering, NoCycleBetweenFolders) {
  std::map<Unit, std::set<Unit>> uses;
  for (const Include& inc : core_includes()) {
    const Unit a = unit_of(inc.from);
    const Unit b = unit_of(inc.to);
    if (a.name() != b.name()) uses[a].insert(b);
  }
  // Depth-first search; a unit met again while still on the path closes a cycle.
  std::map<std::string, int> state;  // 0 new, 1 on the path, 2 done
  std::vector<std::string> path;
  std::string cycle;
  std::function<void(const Unit&)> visit = [&](const Unit& u) {
    state[u.name()] = 1;
    path.push_back(u.name());
    for (const Unit& v : uses[u]) {
      if (!cycle.empty()) break;
      if (state[v.name()] == 1) {
        const auto start = std::find(path.begin(), path.end(), v.name());
        for (auto it = start; it != path.end(); ++it)
          cycle += *it + " -> ";
        cycle += v.name();
      } else if (state[v.name()] == 0) {
        visit(v);
      }
    }
    path.pop_back();
    state[u.name()] = 2;
  };
  for (const auto& [u, used] : uses) {
    if (state[u.name()] == 0 && cycle.empty()) visit(u);
  }
  EXPECT_TRUE(cycle.empty()) << "folders of core/ include each other: " << cycle;
  EXPECT_GE(uses.size(), 12u);
}

// The commands, the explorer and the input table with the firmware file of several models reach
// the frontends through frontend.h and families.h only: no file of app/, views/ or core/inputs/
// includes a header inside one frontend's folder.
TEST(Layering, AppViewsAndInputsUseNoFrontendDirectly) {
  const std::regex frontend_include(R"re(^\s*#\s*include\s+"frontends/([a-z_]+)/)re");
  int files = 0;
  for (const char* top : {"app", "views", "core/inputs"}) {
    for (const auto& entry : fs::recursive_directory_iterator(kSource / top)) {
      const std::string ext = entry.path().extension().string();
      if (!entry.is_regular_file() || (ext != ".h" && ext != ".cpp")) continue;
      ++files;
      std::stringstream text(read(entry.path()));
      for (std::string line; std::getline(text, line);) {
        std::smatch m;
        EXPECT_FALSE(std::regex_search(line, m, frontend_include))
            << fs::relative(entry.path(), kSource).generic_string() << " includes " << line;
      }
    }
  }
  EXPECT_GT(files, 30);
}

TEST(Layering, TvmCodeSitsUnderItsFrontend) {
  // Nothing outside frontends/tvm/ is about TVM's formats: no folder of those names elsewhere.
  for (const char* name : {"mlf", "tir", "c_analysis", "usmp", "io", "analysis"})
    EXPECT_FALSE(fs::exists(kSource / "core" / name)) << "core/" << name << " belongs under core/frontends/tvm";
  EXPECT_TRUE(fs::is_regular_file(kSource / "core/frontends/tvm/mlf/mlf_model.h"));
  EXPECT_TRUE(fs::is_regular_file(kSource / "core/frontends/frontend.h"));
}

}  // namespace
