// SPDX-License-Identifier: MIT
// NGC PyTorch container tags (data/ngc.json) and the pure rule that picks one for a GPU and a
// host driver.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "validation/reason.hpp"

namespace advisor::validation {

/// How well a tag's row is sourced (data/ngc.json "status").
enum class TagStatus {
  confirmed,    // read on the tag's NGC PyTorch release-notes page
  secondary,    // tables sharing the monthly base (Triton, Jetson, CUDA toolkit notes)
  unconfirmed,  // derived from another container's table: never chosen automatically
};

/// One `nvcr.io/nvidia/pytorch:<tag>-py3` release.
struct NgcTag {
  std::string tag;             // "24.10"
  std::string cuda;            // "12.6.2"
  std::string pytorch;         // "2.5.0a0+e000cf0ad9"; "" = not sourced
  std::string min_driver;      // minimum host driver without forward compatibility
  std::string bundled_driver;  // driver the cuda-compat package was built from; "" = n/s
  std::vector<std::string> dc_forward_compat_branches;  // "535.86" = R535 from 535.86 on
  std::string arch_min_cc;        // lowest compute capability supported, "6.0" / "7.5"
  bool native_blackwell = false;  // Blackwell (CC 10.x / 12.x) supported natively
  std::string ubuntu, python;     // "" = not sourced
  TagStatus status = TagStatus::secondary;
  std::vector<std::string> source;
  std::string as_of;
  std::string notes;
};

struct NgcCatalog {
  std::vector<NgcTag> tags;  // oldest first
  std::string default_registry = "nvcr.io";
  std::string as_of;
};

/// Who may use forward compatibility: only data-centre parts (CUDA forward-compatibility doc).
enum class ProductClass { data_center, workstation, geforce };

/// What the tag rule needs to know about a GPU.
struct GpuForTag {
  std::string compute_capability;       // "9.0"; "" for non-CUDA parts
  std::string software_stack = "cuda";  // cuda | rocm | cann
  ProductClass product = ProductClass::data_center;
};

struct TagChoice {
  bool found = false;
  std::string tag;              // "" when !found
  std::string min_driver;       // the chosen tag's minimum host driver (without forward compat)
  bool forward_compat = false;  // runs through the container's cuda-compat package
  TagStatus status = TagStatus::secondary;
  Reason reason;  // newest_for_driver | forward_compat | newest_no_driver | driver_too_old |
                  // no_tag_for_gpu | no_ngc_for_stack
};

/// Picks the tag: the newest tag supporting the GPU whose minimum driver is <= the host driver;
/// else, on data-centre parts (never GeForce or workstation cards, never Blackwell), the newest
/// whose forward-compatibility branches include the host's branch. Blackwell needs 25.01+ (tags
/// with native_blackwell). Without a host driver: the newest tag supporting the GPU. Unconfirmed
/// rows are skipped unless `allow_unconfirmed`. Pure: no I/O.
TagChoice pick_ngc_tag(const NgcCatalog& catalog, const GpuForTag& gpu,
                       const std::optional<std::string>& host_driver,
                       bool allow_unconfirmed = false);

/// Tags the GPU can run at all (architecture rule only), newest first.
std::vector<const NgcTag*> tags_for_gpu(const NgcCatalog& catalog, const GpuForTag& gpu,
                                        bool allow_unconfirmed = false);

/// Compares dotted versions numerically ("570.86.10" vs "570.124.06"): <0, 0, >0.
int compare_versions(const std::string& a, const std::string& b);

/// True for Blackwell compute capabilities (10.x, 11.x, 12.x).
bool is_blackwell_cc(const std::string& compute_capability);

const char* to_string(TagStatus status);
const char* to_string(ProductClass product);

}  // namespace advisor::validation
