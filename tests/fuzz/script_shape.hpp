// SPDX-License-Identifier: MIT
// The command structure of a generated script, with its data left out: what must not change
// when a name in the request changes. A name reaches a script only as quoted data or inside a
// comment; if it ever ended a comment or a quote, the shape would gain commands, operators or
// lines, and the comparison with a benign name fails.
#pragma once
#include <string>

namespace fuzz {

/// A bash script's shape: one token per word ("w"), each operator (; & | ( ) < > and the
/// expansions $( ${ ` $ that run or substitute) and each line end, with quoted text and comments
/// dropped and here-document bodies reduced to one token. Two scripts that differ only in the
/// text of quoted words and comments have the same shape.
std::string shell_shape(const std::string& script);

/// A Python file's shape: the text with every comment dropped and every string literal reduced
/// to "Q", its line ends (\n, \r\n and a lone \r, as Python's tokenizer reads them) as "\n".
std::string python_shape(const std::string& source);

}  // namespace fuzz
