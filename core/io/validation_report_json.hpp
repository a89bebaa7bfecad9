// SPDX-License-Identifier: MIT
// What the validation module writes, as JSON text: the check report, the generated scripts and
// the NGC tag choice (io/validation_json.hpp reads its inputs).
#pragma once
#include <string>
#include <vector>

#include "validation/check.hpp"
#include "validation/check_servers.hpp"
#include "validation/ngc.hpp"
#include "validation/plan.hpp"
#include "validation/scripts.hpp"

namespace advisor::validation {

/// {"schema":1,"plan_id","file","overall","counts":{pass,warn,fail},"items":[{area,item,status,
/// expected,measured,unit,deviation,reason:{code,params:{},message}}],"script_checks":[...]}
std::string check_report_json(const CheckReport& report);

/// A cluster's check, one result file per server: {"schema":1,"kind":"cluster","plan_id",
/// "overall","servers_expected","counts":{pass,warn,fail} (servers),"items":[as above: missing,
/// duplicate or extra servers],"servers":[{"host","file","overall","report":{as above}}]}
std::string cluster_report_json(const ClusterReport& cluster);

/// {"schema":1,"plan_id","ngc":{tag,min_driver,reason},"files":[{name,text,executable,purpose,root}]}
std::string scripts_json(const ValidationPlan& plan, const std::vector<ScriptFile>& files);

/// {"found","tag","min_driver","forward_compat","status","reason":{code,params,message}}
std::string tag_choice_json(const TagChoice& choice);

}  // namespace advisor::validation
