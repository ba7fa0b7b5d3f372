// Times loading each MLF tarball of the shared data, split into the three stages of
// load_mlf_model: archive (libarchive into memory + metadata.json), parse (libclang) and analysis
// (TVM constructs, liveness walk, sizes, pools, sweep). The reference is reading the same file's
// bytes from disk in the same run, so machines compare as ratios. Median of --runs runs. The
// last column is the parse with the weights' literal data left for clang to read (what
// CParseInput::skip_constant_data avoids), for comparison.
//
// usage: usmpx_bench_mlf_load [--shared DIR] [--runs N] [FILE...]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "frontends/tvm/mlf/mlf_model.h"

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

struct Times {
  std::vector<double> read, archive, parse, analysis;
  std::vector<double> parse_all_data;  // the same parse with the weights' literal data shown to clang
  size_t buffers = 0;
  size_t c_bytes = 0;
};

Times measure(const std::string& path, int runs) {
  Times t;
  for (int r = 0; r < runs; ++r) {
    auto started = Clock::now();
    {
      std::ifstream in(path, std::ios::binary);
      std::string bytes(std::filesystem::file_size(path), '\0');
      in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
      if (!in) throw std::runtime_error("cannot read " + path);
    }
    t.read.push_back(ms_since(started));

    started = Clock::now();
    auto package = std::make_shared<const usmpx::MlfPackage>(usmpx::read_mlf(path));
    const usmpx::MlfModule module = usmpx::select_module(*package, "");
    t.archive.push_back(ms_since(started));

    started = Clock::now();
    usmpx::CProgram program = usmpx::parse_c_program(usmpx::mlf_parse_input(*package, module));
    t.parse.push_back(ms_since(started));

    usmpx::CParseInput all_data = usmpx::mlf_parse_input(*package, module);
    all_data.skip_constant_data = false;
    started = Clock::now();
    (void)usmpx::parse_c_program(all_data);
    t.parse_all_data.push_back(ms_since(started));

    started = Clock::now();
    const usmpx::MlfModel model = usmpx::analyse_mlf(package, module, std::move(program), {});
    t.analysis.push_back(ms_since(started));
    t.buffers = model.problem.buffers.size();
    t.c_bytes = 0;
    for (const usmpx::ArchiveFile* f : module.sources)
      t.c_bytes += f->data.size();
  }
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  std::string shared = USMPX_SHARED_DIR;
  int runs = 5;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--shared" && i + 1 < argc) {
      shared = argv[++i];
    } else if (arg == "--runs" && i + 1 < argc) {
      runs = std::max(1, std::atoi(argv[++i]));
    } else if (arg == "--help") {
      std::cout << "usage: usmpx_bench_mlf_load [--shared DIR] [--runs N] [FILE...]\n";
      return 0;
    } else {
      files.push_back(arg);
    }
  }
  if (files.empty()) {
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(shared + "/mlf", ec)) {
      const std::string p = e.path().string();
      if (p.ends_with(".tar") || p.ends_with(".tar.gz") || p.ends_with(".tgz")) files.push_back(p);
    }
    std::sort(files.begin(), files.end());
  }
  if (files.empty()) {
    std::cerr << "no MLF tarballs under " << shared << "/mlf (use --shared DIR or name files)\n";
    return 1;
  }
  std::printf("%-22s %9s %8s %9s %10s %10s %11s %10s %11s %16s\n", "file", "C bytes", "buffers", "read ms",
              "archive ms", "parse ms", "analysis ms", "total ms", "total/read", "parse, data ms");
  for (const std::string& f : files) {
    try {
      const Times t = measure(f, runs);
      const double read = median(t.read);
      const double archive = median(t.archive);
      const double parse = median(t.parse);
      const double analysis = median(t.analysis);
      const double total = archive + parse + analysis;
      std::printf("%-22s %9zu %8zu %9.2f %10.2f %10.2f %11.2f %10.2f %10.0fx %16.2f\n",
                  std::filesystem::path(f).filename().string().c_str(), t.c_bytes, t.buffers, read, archive, parse,
                  analysis, total, read > 0 ? total / read : 0.0, median(t.parse_all_data));
    } catch (const std::exception& e) {
      std::printf("%-22s error: %s\n", std::filesystem::path(f).filename().string().c_str(), e.what());
    }
  }
  return 0;
}
